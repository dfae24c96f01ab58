import Foundation
import Testing
@testable import quire

@Suite struct LayoutCommandTests {
    @Test func layoutIsASubcommand() {
        #expect(Quire.configuration.subcommands.contains { $0 == LayoutCommand.self })
        #expect(throws: Never.self) { try LayoutCommand.parse(["--lines"]) }
        #expect(throws: Never.self) { try LayoutCommand.parse(["--request", "r.json"]) }
    }

    @Test func linesModeAnswersEachLineAndContinuesAfterErrors() throws {
        let pipe = Pipe()
        let input = """
            {"layout":"featured","viewport":{"width":375,"height":667},"count":3,"id":"a"}

            {"layout":"featured","viewport":{"width":375}}
            {"layout":"pager","viewport":{"width":390,"height":844},"count":2,"id":"c"}
            """
        pipe.fileHandleForWriting.write(Data(input.utf8))
        try pipe.fileHandleForWriting.close()
        var lines: [String] = []
        try LayoutCommand.answerLines(from: pipe.fileHandleForReading) { lines.append($0) }
        #expect(lines.count == 3)
        #expect(lines[0].contains(#""id":"a""#) && lines[0].contains(#""layout":"featured""#))
        #expect(lines[1].hasPrefix(#"{"error":{"field":"viewport.height""#))
        #expect(lines[2].contains(#""id":"c""#))
        #expect(lines.allSatisfy { !$0.contains("\n") })
    }
}
