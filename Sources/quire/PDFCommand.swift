import ArgumentParser
import Foundation
import QuireKit

/// `quire pdf OUT`: the corrected pages of a processed folder as one PDF.
struct PDFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pdf",
        abstract: "Write the pages of a processed folder as one PDF (OUT/pages.pdf).",
        discussion: """
            Pages come in batch order; JPEG pages are embedded byte for byte, others losslessly; one \
            bookmark per source file. Page size: --dpi for every page, else the page's own resolution \
            (a scan's dpi), else the paper width (--paper, A4 when not given) at the page's measured \
            aspect. No creation date unless --creation-date: two runs over the same pages give \
            identical files, and a rerun with nothing changed keeps the file. Exit status: 0 when every \
            page is in the PDF, 1 when some page could not be added (one line each) or the PDF cannot \
            be written.
            """)

    @Argument(help: "A folder written by quire process or quire merge (holds layout.json).")
    var folder: String

    @Option(name: [.customShort("o"), .customLong("output")], help: "The PDF to write (default: OUT/pages.pdf).")
    var output: String?

    @OptionGroup var pdf: PDFOptions

    @Option(help: "Every page at this resolution (dots per inch), whatever the pages say.")
    var dpi: Double?

    @Option(
        help:
            "Paper of pages without a resolution (corrected photos): a3, a4, a5, letter or legal (default: A4 width at the page's aspect)."
    )
    var paper: PaperSize?

    @Flag(help: "Rewrite the PDF even when nothing changed.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print only failures.")
    var quiet = false

    func validate() throws {
        if let dpi {
            guard dpi.isFinite, (10...10_000).contains(dpi) else {
                throw ValidationError("--dpi must be 10-10000, not \(dpi).")
            }
        }
        try pdf.validate()
    }

    func run() throws {
        var options = try pdf.options(output: output, force: force)
        options.dpi = dpi
        options.paper = paper
        try Self.export(folder: folder, options: options, quiet: quiet, command: "quire pdf")
    }

    /// Runs the export and prints its outcome; shared with `quire process --pdf`.
    static func export(folder: String, options: PDFExportOptions, quiet: Bool, command: String) throws {
        var standardError = StandardError()
        let result: PDFExportResult
        do {
            result = try PDFExport.run(folder: folder, options: options)
        } catch {
            print("\(command): \(error)", to: &standardError)
            throw ExitCode(1)
        }
        for failure in result.failures { print("\(command): \(failure)", to: &standardError) }
        if !quiet {
            if result.reused {
                print("quire: \(result.path) is up to date (\(result.pageCount) pages)", to: &standardError)
            } else {
                let bytes = ExportStamp.fileIdentity(result.path)?.size ?? 0
                print(
                    "quire: \(result.pageCount) page\(result.pageCount == 1 ? "" : "s") written to \(result.path) "
                        + "(\(result.passedThrough) JPEG as they are, \(result.lossless) lossless"
                        + (result.textPages > 0 ? ", \(result.textPages) with text" : "") + "), "
                        + String(format: "%.1f MB", Double(bytes) / 1e6), to: &standardError)
            }
        }
        if !result.failures.isEmpty { throw ExitCode(1) }
    }
}

/// The PDF options `quire pdf` and `quire process --pdf` share.
struct PDFOptions: ParsableArguments {
    @Option(help: "Document title (default: the output folder's name).")
    var title: String?

    @Option(help: "Document author.")
    var author: String?

    @Option(
        help: ArgumentHelp(
            "Write a creation date: 'now' or an ISO 8601 date-time such as 2026-11-24T21:00:00Z (default: none, for reproducible files).",
            valueName: "date"))
    var creationDate: String?

    @Flag(
        name: .customLong("pdfa"),
        help:
            "Write PDF/A-2b, for archives: XMP metadata, an sRGB output intent with its ICC profile, every font embedded."
    )
    var pdfA = false

    func validate() throws {
        if let creationDate, Self.isoDate(creationDate) == nil {
            throw ValidationError(
                "--creation-date must be 'now' or an ISO 8601 date-time such as 2026-11-24T21:00:00Z, not '\(creationDate)'."
            )
        }
    }

    func options(output: String?, force: Bool) throws -> PDFExportOptions {
        PDFExportOptions(
            output: output, title: title, author: author, creationDate: creationDate.flatMap(Self.isoDate),
            force: force,
            pdfA: pdfA)
    }

    /// "now" -> the current UTC time; an ISO 8601 date-time -> itself, normalised to UTC.
    static func isoDate(_ text: String) -> String? {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        if text == "now" { return formatter.string(from: Date()) }
        if let date = formatter.date(from: text) { return formatter.string(from: date) }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        return day.date(from: text).map { formatter.string(from: $0) }
    }
}

extension PaperSize: ExpressibleByArgument {}
