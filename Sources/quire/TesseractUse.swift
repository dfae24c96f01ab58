/// Whether a run may call Tesseract, told from its arguments before they are parsed: only
/// such a run needs OpenMP's thread limit, which costs a second start of the program
/// (`ImagingRuntime.limitOpenMPThreads`). When unsure, the answer is yes.
enum TesseractUse {
    /// Subcommands that never run Tesseract: they read what `process` wrote (hOCR included).
    static let neverCalledBy: Set<String> = ["layout", "strip", "render", "merge", "view", "pdf", "iiif", "help"]

    /// - Parameter arguments: the arguments after the program's name.
    static func possible(arguments: [String]) -> Bool {
        guard let command = arguments.first else { return false }
        if ["--version", "--help", "-h"].contains(command) || neverCalledBy.contains(command) { return false }
        guard command == "process" else { return true }
        let options = Array(arguments.dropFirst().prefix { $0 != "--" })
        if options.contains("--thumbnails-only") { return false }
        // Orientation detection is off with --rotate none or --correct none; OCR only with --ocr.
        return options.contains("--ocr")
            || !(value(of: "--rotate", in: options) == "none"
                || value(of: "--correct", in: options) == "none")
    }

    /// The last value given to `option` as `--option VALUE` or `--option=VALUE`.
    static func value(of option: String, in options: [String]) -> String? {
        var found: String?
        for (i, token) in options.enumerated() {
            if token == option, i + 1 < options.count {
                found = options[i + 1]
            } else if token.hasPrefix(option + "=") {
                found = String(token.dropFirst(option.count + 1))
            }
        }
        return found
    }
}
