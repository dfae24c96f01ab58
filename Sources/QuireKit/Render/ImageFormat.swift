import VipsBridge

/// The file formats `quire strip` and `quire render` write (`--format`), named so the CLI
/// needs no import of the libvips bridge.
public typealias ImageFormat = VIPSImage.SaveFormat

extension VIPSImage.SaveFormat {
    /// A format from its name on the command line; `jpg` and `tif` name `jpeg` and `tiff`.
    public init?(name: String) {
        let name = name.lowercased()
        self.init(rawValue: name == "jpg" ? "jpeg" : name == "tif" ? "tiff" : name)
    }

    /// A format from `--format`, refused unless it is one of `allowed`.
    /// - Parameter expected: the allowed names as the user reads them (`png, jpeg or webp`).
    /// - Throws: `ValueParseError` naming what is expected.
    public init(parsing text: String, allowed: [Self], expected: String) throws(ValueParseError) {
        guard let format = Self(name: text), allowed.contains(format) else {
            throw ValueParseError("must be \(expected)")
        }
        self = format
    }
}
