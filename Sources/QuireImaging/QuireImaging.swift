/// QuireImaging: decoding, orientation, page detection, perspective correction, deskew, trim,
/// open-book splitting, thumbnails and encoding, on top of VipsBridge. Its public values are plain Sendable data.
@_exported import QuireGeometry
@_exported import QuirePageAnalysis
