/// QuireKit: batches (input discovery, jobs, concurrency, reports, strips, rendering).
@_exported import QuireGeometry
/// The layout.json model (`LayoutReport`) and the layouts live in QuireLayout.
@_exported import QuireLayout
/// The page pipeline and its options (`CorrectionOptions`, `CornersFile`, `TesseractEngines` ...):
/// the CLI imports QuireKit alone.
@_exported import QuireImaging
