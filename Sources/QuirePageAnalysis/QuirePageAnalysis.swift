/// QuirePageAnalysis: what a page is, decided from the pixels of its small detection copy alone
/// (page quads in photos, skew and lid of scans, spreads, scanner strips, paper tone). Pure Swift
/// on QuireGeometry: no libvips and no Foundation, so its tests run without an image library.
/// Generic image primitives live in `Primitives/`, the page logic in `Detect/`, `Skew/`,
/// `Spread/`, `Edges/` and `Orient/`. QuireImaging makes the copies and calls it.
@_exported import QuireGeometry
