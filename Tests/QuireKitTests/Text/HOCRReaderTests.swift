import Foundation
import QuireGeometry
import Testing
@testable import QuireKit
import QuireTestSupport

/// Reading Tesseract's hOCR into words and lines; hostile files never trap.
@Suite struct HOCRReaderTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestSupport.repoRoot.appendingPathComponent("Tests/Fixtures/hocr/\(name)")))
    }

    @Test func aTesseractPageGivesItsLinesAndWordsInOrder() throws {
        let page = try HOCRReader.read(try Self.fixture("tesseract-page.hocr"))
        #expect(page.width == 1653 && page.height == 2336)
        #expect(page.lines.count == 2)
        let first = page.lines[0]
        #expect(first.words.map(\.text).prefix(3) == ["Optical", "character", "recognition"])
        #expect(first.words[0].box == Rect(x: 29, y: 24, width: 96, height: 28))
        #expect(first.words[0].confidence == 95)
        // baseline -0.001 -5 on the line's box 29 23 1626 52: y = 52 - 5 at its left end.
        #expect(abs(first.baselineY(at: 29) - 47) < 1e-9)
        #expect(page.words.count == first.words.count + page.lines[1].words.count)
    }

    @Test func entitiesScriptsDirectionAndLineKindsAreRead() throws {
        let page = try HOCRReader.read(try Self.fixture("scripts.hocr"))
        #expect(
            page.lines.map { $0.words.map(\.text) } == [
                ["Fish&Chips", "<café>", "Ελληνικά", "日本語"], ["مرحبا", "بالعالم"], ["שלום", "2026"]
            ])
        #expect(page.lines[0].words.allSatisfy { !$0.rightToLeft })
        #expect(page.lines[1].words.allSatisfy { $0.rightToLeft })  // from the paragraph's dir
        #expect(page.lines[2].words.map(\.rightToLeft) == [true, false])  // a word's own dir wins
        #expect(page.text.hasPrefix("Fish&Chips <café>"))
    }

    @Test func aFileWithoutAPageIsRefusedAndBrokenNumbersAreDropped() {
        #expect(throws: HOCRError.noPage) { try HOCRReader.read(Array("<html><body>text</body></html>".utf8)) }
        #expect(throws: HOCRError.noPage) {
            try HOCRReader.read(Array("<div class='ocr_page' title='bbox 0 0 1e400 5'>".utf8))
        }
        let odd = """
            <div class='ocr_page' title='bbox 0 0 100 100'>
            <span class='ocr_line' title='bbox 0 0 100 10; baseline nan -3'>
            <span class='ocrx_word' title='bbox 5 5 -3 9'>inverted</span>
            <span class='ocrx_word' title='bbox 5 1 90 9; x_wconf 900'>ok</span>
            <span class='ocrx_word' title='bbox 1 1 2 2'>   </span>
            """
        let page = try? HOCRReader.read(Array(odd.utf8))
        #expect(page?.words.map(\.text) == ["ok"])
        #expect(page?.words.first?.confidence == nil)
        #expect(page?.lines.first?.baseline == nil)
    }
}

/// Seeded mutations of `Tests/Fixtures/fuzz/hocr/` through the reader: a page or `HOCRError`,
/// every box inside the coordinate bound, never a trap. `QUIRE_FUZZ_ITERATIONS` sets the count.
@Suite struct HOCRFuzzTests {
    @Test func everyMutatedFileIsReadOrRefused() throws {
        let corpus = FuzzCorpus.load("hocr")
        try #require(!corpus.isEmpty, "the seed corpus Tests/Fixtures/fuzz/hocr is missing")
        var mutator = FuzzMutator(seed: FuzzMutator.seedFromEnvironment)
        for _ in 0..<FuzzMutator.iterations {
            let input = mutator.mutate(
                corpus[mutator.next(below: corpus.count)],
                tokens: [
                    "<", ">", "</span>", "<span class='ocrx_word' title='bbox 1 2 3 4'>", "&#x", "&#99999999;",
                    "&amp", "'", "\"", "bbox ", "baseline ", "1e308", "-5", "dir='rtl'", "<!--", "<?"
                ])
            do {
                let page = try HOCRReader.read(input)
                #expect(page.width >= 1 && page.height >= 1)
                for word in page.words {
                    #expect(
                        !word.text.isEmpty && word.box.minX >= 0 && word.box.maxY <= HOCRReader.maxCoordinate,
                        "seed \(mutator.seed)")
                }
            } catch {
                #expect(error == .noPage)
            }
        }
    }
}
