import Foundation
import Testing
import VipsBridge
@testable import QuireKit

/// `PDFExport` on small output folders built in the test.
@Suite struct PDFExportTests {
    private func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    private func count(_ needle: String, in haystack: [UInt8]) -> Int {
        let n = Array(needle.utf8)
        guard n.count <= haystack.count else { return 0 }
        var found = 0
        for i in 0...(haystack.count - n.count) where haystack[i] == n[0] && Array(haystack[i..<(i + n.count)]) == n {
            found += 1
        }
        return found
    }

    /// Where `needle` starts in `haystack`.
    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { i in
            haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle)
        }
    }

    @Test func everyPageInOrderWithItsJPEGBytes() throws {
        let fixture = try OutputFixture.make(aspectRatios: [0.7, 1.5, 1.0])
        defer { fixture.remove() }
        let result = try PDFExport.run(folder: fixture.url.path, options: PDFExportOptions(title: "Fixture"))
        #expect(result.pageCount == 3 && result.passedThrough == 3 && result.lossless == 0 && !result.reused)
        #expect(result.path == fixture.url.appendingPathComponent("pages.pdf").path)
        let pdf = try bytes(result.path)
        #expect(pdf.starts(with: Array("%PDF-1.5".utf8)))
        #expect(count("/Type /Page", in: pdf) - count("/Type /Pages", in: pdf) == 3)
        #expect(count("/DCTDecode", in: pdf) == 3)
        // Each page file's bytes appear in the PDF as they are.
        for i in 1...3 {
            let page = try bytes(fixture.url.appendingPathComponent(String(format: "pages/%04d.jpg", i)).path)
            #expect(find(page, in: pdf) != nil, "page \(i)")
        }
        // One bookmark per source file, the title, no creation date.
        #expect(count("/Outlines", in: pdf) >= 1)
        for i in 0..<3 { #expect(count("(in/\(i).jpg)", in: pdf) == 1) }
        #expect(count("(Fixture)", in: pdf) == 1)
        #expect(count("/CreationDate", in: pdf) == 0)
    }

    @Test func reproducibleAndKeptWhenNothingChanged() throws {
        let fixture = try OutputFixture.make(aspectRatios: [0.7, 1.3])
        defer { fixture.remove() }
        let first = try PDFExport.run(folder: fixture.url.path, options: PDFExportOptions())
        let firstBytes = try bytes(first.path)
        let again = try PDFExport.run(folder: fixture.url.path, options: PDFExportOptions())
        #expect(again.reused)
        let forced = try PDFExport.run(folder: fixture.url.path, options: PDFExportOptions(force: true))
        #expect(!forced.reused)
        #expect(try bytes(forced.path) == firstBytes)
        // Another option, or a page rewritten by a rerun of quire process, makes a new file.
        #expect(!(try PDFExport.run(folder: fixture.url.path, options: PDFExportOptions(paper: .letter))).reused)
        #expect(try PDFExport.run(folder: fixture.url.path, options: PDFExportOptions(paper: .letter)).reused)
        let page = fixture.url.appendingPathComponent("pages/0002.jpg").path
        let replacement = page + ".new"
        try OutputFixture.image(OutputFixture.spec(5, aspectRatio: 1.3), width: 480, height: 369)
            .save(to: replacement, options: .init(format: .jpeg, quality: 90))
        #expect(rename(replacement, page) == 0)
        #expect(!(try PDFExport.run(folder: fixture.url.path, options: PDFExportOptions(paper: .letter))).reused)
        // A removed PDF is written again.
        try FileManager.default.removeItem(atPath: first.path)
        #expect(!(try PDFExport.run(folder: fixture.url.path, options: PDFExportOptions(paper: .letter))).reused)
        #expect(FileManager.default.fileExists(atPath: first.path))
    }

    @Test func creationDateOnlyWhenAsked() throws {
        let fixture = try OutputFixture.make(aspectRatios: [1.0])
        defer { fixture.remove() }
        let result = try PDFExport.run(
            folder: fixture.url.path, options: PDFExportOptions(creationDate: "2026-01-02T03:04:05Z"))
        let pdf = try bytes(result.path)
        #expect(count("/CreationDate (D:20260102030405Z)", in: pdf) == 1)
    }

    @Test func pngPagesAreLosslessAndABadPageIsLeftOut() throws {
        let fixture = try OutputFixture.make(aspectRatios: [0.75, 0.75, 0.75])
        defer { fixture.remove() }
        // Page 1 becomes a PNG (layout.json updated), page 3's file disappears.
        var report = try LayoutReport.read(from: fixture.url.appendingPathComponent("layout.json"))
        let png = fixture.url.appendingPathComponent("pages/0001.png").path
        let gray = try VIPSImage.fromPixels((0..<(30 * 40)).map { UInt8($0 % 251) }, width: 30, height: 40, bands: 1)
        try gray.save(to: png, options: .init(format: .png))
        report.pages[0].files.page = "pages/0001.png"
        report.pages[0].width = 30
        report.pages[0].height = 40
        try report.encoded().write(to: fixture.url.appendingPathComponent("layout.json"))
        try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("pages/0003.jpg"))

        let result = try PDFExport.run(
            folder: fixture.url.path, options: PDFExportOptions(output: fixture.url.path + "/b.pdf"))
        #expect(result.pageCount == 2 && result.lossless == 1 && result.passedThrough == 1)
        #expect(result.failures.count == 1 && result.failures[0].hasPrefix("pages/0003.jpg: "))
        let pdf = try bytes(result.path)
        #expect(count("/FlateDecode", in: pdf) >= 1 && count("/DCTDecode", in: pdf) == 1)
        // Not stamped: the next run tries again.
        #expect(
            !(try PDFExport.run(
                folder: fixture.url.path, options: PDFExportOptions(output: fixture.url.path + "/b.pdf"))).reused)
    }

    @Test func nothingLeftUnderTheFinalNameWhenNoPageCanBeAdded() throws {
        let fixture = try OutputFixture.make(aspectRatios: [1.0])
        defer { fixture.remove() }
        try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("pages/0001.jpg"))
        #expect(throws: ExportError.self) { try PDFExport.run(folder: fixture.url.path, options: PDFExportOptions()) }
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.url.path)
        #expect(!names.contains { $0.hasSuffix(".pdf") || $0.contains(".partial-") || $0.hasSuffix(".tmp") })
    }
}
