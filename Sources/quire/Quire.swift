import ArgumentParser

/// The `quire` command: a thin layer that maps options to QuireKit calls.
@main
struct Quire: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire",
        abstract: "Turn captured document pages into clean pages, previews, thumbnails, strips and viewer geometry.",
        version: "0.2.0",
        subcommands: [
            ProcessCommand.self, DetectCommand.self, LayoutCommand.self, StripCommand.self, RenderCommand.self,
            MergeCommand.self, ViewCommand.self, PDFCommand.self, IIIFCommand.self
        ]
    )
}
