import ArgumentParser
import QuireKit

// The option values the CLI reads, each parsed once into its library type while the arguments
// are read. Types whose text can be wrong in more than one way are given to `@Option` with
// `transform:` too, so the usage error says the library's reason after the option's name:
// `The value '0x5' is invalid for '--viewport <WxH>': width and height must be positive ...`.
// (argument-parser shows no default for such an option: its help text says it.)

extension ViewportSize: ExpressibleByArgument {
    public init?(argument: String) { try? self.init(parsing: argument) }
}

extension PixelCount: ExpressibleByArgument {
    public init?(argument: String) { try? self.init(parsing: argument) }
}

extension ShardSelector: ExpressibleByArgument {
    public init?(argument: String) { try? self.init(parsing: argument) }
}

extension CornersFile: ExpressibleByArgument {
    /// Reads (and checks) the file at the path given.
    public init?(argument: String) { try? self.init(contentsOf: argument) }
}

extension ImageFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
}

extension OutputFormat: ExpressibleByArgument {}

/// `--layout`: a name from `LayoutCatalogue` (any case); the usage error lists them all.
extension LayoutName: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
extension ProgressReporter.Style: ExpressibleByArgument {}
extension CorrectionOptions.Mode: ExpressibleByArgument {}
extension CorrectionOptions.Paper: ExpressibleByArgument {}
extension CleanOptions.Edges: ExpressibleByArgument {}
extension CorrectionOptions.Rotate: ExpressibleByArgument {}
extension SplitOptions.Mode: ExpressibleByArgument {}
extension SplitOptions.Order: ExpressibleByArgument {}
extension CleanOptions.Background: ExpressibleByArgument {}
extension CleanOptions.Mode: ExpressibleByArgument {}

/// `--viewer`: whether `quire process` writes the web viewer into OUT.
enum ViewerChoice: String, ExpressibleByArgument, CaseIterable {
    case web, none
}
