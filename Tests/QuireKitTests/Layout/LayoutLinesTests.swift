import Foundation
import Testing
import QuireKit

/// `quire layout --lines` input: lines cut across chunks, over-long lines skipped without being
/// buffered, and the service answering the line after one it refused.
@Suite struct LayoutLinesTests {
    func events(_ chunks: [String], cap: Int) -> [LayoutLineSplitter.Event] {
        var splitter = LayoutLineSplitter(maximumLineBytes: cap)
        var out: [LayoutLineSplitter.Event] = []
        for chunk in chunks { splitter.feed(Data(chunk.utf8)) { out.append($0) } }
        splitter.finish { out.append($0) }
        return out
    }

    func line(_ s: String) -> LayoutLineSplitter.Event { .line(Data(s.utf8)) }

    @Test func linesAreCutAcrossChunks() {
        #expect(events(["ab", "c\nd", "e\n\nf"], cap: 10) == [line("abc"), line("de"), line(""), line("f")])
        #expect(events(["a\n", "b\n"], cap: 10) == [line("a"), line("b")])
        #expect(events([""], cap: 10) == [])
    }

    @Test func aLineOverTheCapIsReportedWithItsLengthAndTheNextLineIsWhole() {
        #expect(events(["0123", "45678", "9abc\nok\n"], cap: 8) == [.tooLong(byteCount: 13), line("ok")])
        #expect(events(["12345678\n123456789\n"], cap: 8) == [line("12345678"), .tooLong(byteCount: 9)])
        #expect(events(["123456789"], cap: 8) == [.tooLong(byteCount: 9)])
    }

    /// Feeds `text` to `answerLines` through a pipe from another thread (a pipe holds 64 KiB).
    func answer(_ text: String, cap: Int = LayoutLimits.maximumRequestBytes) -> [String] {
        let pipe = Pipe()
        let writer = Thread {
            pipe.fileHandleForWriting.write(Data(text.utf8))
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        var replies: [String] = []
        LayoutService.answerLines(from: pipe.fileHandleForReading, maximumLineBytes: cap) { replies.append($0) }
        return replies
    }

    static let request = #"{"id":1,"layout":"pager","viewport":{"width":390,"height":844},"count":3}"#

    /// A valid request padded past the cap used to be buffered and answered; now it is refused
    /// and the service goes on.
    @Test func anOverLongLineGetsAnErrorAndTheNextLineIsAnswered() {
        let padded = Self.request + String(repeating: " ", count: LayoutLimits.maximumRequestBytes + 10)
        let replies = answer(padded + "\n" + Self.request + "\n")
        #expect(replies.count == 2)
        #expect(
            replies.first?.hasPrefix(#"{"error":{"field":"","message":"the request line is"#) == true,
            "\(replies.first ?? "")")
        #expect(replies.last?.contains(#""id":1"#) == true && replies.last?.contains("error") == false)
    }

    @Test func manyShortLinesInOneChunkAreAllAnswered() {
        let replies = answer(String(repeating: Self.request + "\n", count: 300))
        #expect(replies.count == 300)
        #expect(replies.allSatisfy { $0.contains(#""id":1"#) })
    }
}
