import ArgumentParser
import Foundation
import QuireKit
import Testing
@testable import quire

/// `quire pdf`, `quire iiif` and the `--pdf` / `--iiif` options of `quire process`: options map
/// to the export values, and bad values are refused while parsing (exit status 2).
@Suite struct ExportCommandTests {
    @Test func subcommandsAreRegistered() {
        let names = Quire.configuration.subcommands.map { $0.configuration.commandName }
        #expect(names.contains("pdf") && names.contains("iiif"))
    }

    @Test func pdfOptionsMapToTheExport() throws {
        let command = try PDFCommand.parse([
            "out", "-o", "book.pdf", "--title", "Book", "--author", "A. Person",
            "--dpi", "300", "--paper", "letter", "--creation-date", "2026-01-02"
        ])
        var options = try command.pdf.options(output: command.output, force: command.force)
        options.dpi = command.dpi
        options.paper = command.paper
        #expect(
            options
                == PDFExportOptions(
                    output: "book.pdf", title: "Book", author: "A. Person", dpi: 300, paper: .letter,
                    creationDate: "2026-01-02T00:00:00Z"))
        let plain = try PDFCommand.parse(["out"])
        #expect(try plain.pdf.options(output: plain.output, force: false) == PDFExportOptions())
    }

    @Test func creationDates() throws {
        #expect(PDFOptions.isoDate("2026-11-24T21:00:00Z") == "2026-11-24T21:00:00Z")
        #expect(PDFOptions.isoDate("2026-11-24T22:00:00+01:00") == "2026-11-24T21:00:00Z")
        let now = try #require(PDFOptions.isoDate("now"))
        #expect(ISO8601DateFormatter().date(from: now) != nil)
        #expect(PDFOptions.isoDate("yesterday") == nil)
    }

    @Test func badPDFOptionsAreRefused() {
        #expect(throws: (any Error).self) { try PDFCommand.parse(["out", "--paper", "b5"]) }
        #expect(throws: (any Error).self) { try PDFCommand.parse(["out", "--dpi", "0"]) }
        #expect(throws: (any Error).self) { try PDFCommand.parse(["out", "--creation-date", "soon"]) }
    }

    @Test func iiifOptionsMapToTheExport() throws {
        let command = try IIIFCommand.parse([
            "out", "--base-url", "https://x.org/iiif/", "--label", "Book", "--behavior", "paged",
            "--viewing-direction", "right-to-left", "--tile-size", "256", "--quality", "70"
        ])
        #expect(
            command.options
                == IIIFExportOptions(
                    baseURL: "https://x.org/iiif/", label: "Book", behavior: .paged,
                    viewingDirection: .rightToLeft, tileSize: 256, quality: 70))
        #expect(throws: (any Error).self) { try IIIFCommand.parse(["out"]) }
        #expect(throws: (any Error).self) { try IIIFCommand.parse(["out", "--base-url", "x.org/iiif"]) }
        #expect(throws: (any Error).self) {
            try IIIFCommand.parse(["out", "--base-url", "https://x.org", "--behavior", "book"])
        }
        #expect(throws: (any Error).self) {
            try IIIFCommand.parse(["out", "--base-url", "https://x.org", "--tile-size", "10"])
        }
    }

    @Test func processTakesPDFWithOrWithoutAFile() throws {
        #expect(try ProcessCommand.parse(["in", "-o", "out"]).pdfExport == nil)
        let bare = try #require(try ProcessCommand.parse(["in", "-o", "out", "--pdf"]).pdfExport)
        #expect(bare.output == nil)
        #expect(try ProcessCommand.parse(["in", "-o", "out", "--pdf", "-q"]).pdfExport?.output == nil)
        #expect(
            try ProcessCommand.parse(["in", "-o", "out", "--pdf=b.pdf", "--title", "T"]).pdfExport?.output == "b.pdf")
        #expect(try ProcessCommand.parse(["in", "-o", "out", "--pdf", "b.pdf", "-q"]).pdfExport?.output == "b.pdf")
        let titled = try #require(
            try ProcessCommand.parse(["in", "-o", "out", "--pdf", "--title", "T", "--paper", "letter"]).pdfExport)
        #expect(titled.title == "T" && titled.paper == .letter && titled.dpi == nil)
        // --paper auto sizes pages by the A4 width rule; --dpi is PDF inputs' render resolution, not passed on.
        let auto = try #require(try ProcessCommand.parse(["in", "-o", "out", "--dpi", "300", "--pdf"]).pdfExport)
        #expect(auto.paper == nil && auto.dpi == nil)
    }

    @Test func processTakesIIIF() throws {
        let options = try #require(
            try ProcessCommand.parse([
                "in", "-o", "out", "--iiif", "https://x.org/iiif", "--title", "T",
                "--behavior", "paged"
            ]).iiifExport)
        #expect(options.baseURL == "https://x.org/iiif" && options.label == "T" && options.behavior == .paged)
        #expect(throws: (any Error).self) { try ProcessCommand.parse(["in", "-o", "out", "--iiif", "iiif/"]) }
    }
}
