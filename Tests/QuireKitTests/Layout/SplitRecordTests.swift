import Foundation
import QuireImaging
import Testing
@testable import QuireKit

/// A split page's record in layout.json: typed sides and gutters, written as the same words.
@Suite struct SplitRecordTests {
    @Test func sidesAndGuttersAreWrittenAsTheirNames() throws {
        let split = LayoutReport.Split(
            part: 2, count: 2, side: .right, rect: LayoutReport.RectValue(Rect(x: 700, y: 0, width: 700, height: 1000)),
            gutter: .fold)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(
            String(decoding: try encoder.encode(split), as: UTF8.self)
                == #"{"count":2,"gutter":"fold","part":2,"rect":{"height":1000,"width":700,"x":700,"y":0},"side":"right"}"#
        )
        #expect(try JSONDecoder().decode(LayoutReport.Split.self, from: encoder.encode(split)) == split)
    }

    @Test func otherWordsAreRefusedWhenRead() {
        let json = #"{"count":2,"gutter":"fold","part":1,"rect":{"height":1,"width":1,"x":0,"y":0},"side":"middle"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LayoutReport.Split.self, from: Data(json.utf8)) }
    }

    @Test func theSplittersKindsMapOneToOne() {
        #expect(
            LayoutReport.Split.Side(PageSplit.Side.left) == .left
                && LayoutReport.Split.Side(PageSplit.Side.right) == .right)
        #expect(LayoutReport.Split.Gutter(SpreadFinder.Gutter.Kind.margins) == .margins)
        #expect(LayoutReport.Split.Gutter(SpreadFinder.Gutter.Kind.fold) == .fold)
    }
}
