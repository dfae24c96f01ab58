import Foundation
import QuireLayout

extension LayoutJSON {
    /// Parses one JSON document.
    public static func parse(_ data: Data) throws -> LayoutJSON {
        try JSONDecoder().decode(LayoutJSON.self, from: data)
    }
}

extension LayoutJSON {
    static func point(_ p: Point) -> LayoutJSON { .object(["x": .number(p.x), "y": .number(p.y)]) }
    static func size(_ s: Size) -> LayoutJSON { .object(["width": .number(s.width), "height": .number(s.height)]) }
    static func rect(_ r: Rect) -> LayoutJSON {
        .object(["x": .number(r.x), "y": .number(r.y), "width": .number(r.width), "height": .number(r.height)])
    }
    static func insets(_ e: EdgeInsets) -> LayoutJSON {
        .object(["top": .number(e.top), "left": .number(e.left), "bottom": .number(e.bottom), "right": .number(e.right)])
    }
}
