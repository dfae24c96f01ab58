import Foundation
import QuireKit
import QuireLayout
import Testing
import VipsBridge

@Suite struct LayoutRendererTests {
    let aspects = [0.707, 0.75, 1.414, 0.4, 1.0]

    @Test func pagerPictureShowsEachPageWhereTheEngineSays() throws {
        let fixture = try OutputFixture.make(aspectRatios: aspects)
        defer { fixture.remove() }
        var options = RenderOptions()
        options.layout = .pager
        options.offset = Point(x: 150, y: 0)
        options.viewport = Size(width: 390, height: 600)
        options.scale = 2
        options.background = .black
        options.output = fixture.url.appendingPathComponent("renders/p.png").path
        let result = try LayoutRenderer.render(try fixture.folder(), options: options)
        #expect(result.pixelSize == PixelSize(width: 780, height: 1200))
        let pixels = try Pixels(file: result.path)
        #expect(pixels.width == 780 && pixels.height == 1200)

        // Independent expectation from the engine: cell origin on screen, the mask (which does
        // not move) and the image shifted by the parallax translation inside it.
        let pager = Layouts.Pager(viewport: Size(width: 390, height: 600), aspectRatios: aspects)
        let items = pager.items(at: Point(x: 150, y: 0), in: nil)
        #expect(items.count == 2)
        for item in items {
            let cell = item.attributes.frame.offsetBy(dx: -150, dy: 0)
            let visible = try #require(item.visibleImageRect).offsetBy(dx: cell.minX, dy: cell.minY)
            let image = item.mask.offsetBy(dx: item.imageTranslation + cell.minX, dy: cell.minY)
            let spec = fixture.specs[item.attributes.index]
            let y = Int((visible.midY * 2).rounded())
            // Either side of the image's colour boundary (which moves with the image translation).
            let boundary = image.minX + image.width / 2
            let probes = [visible.minX + 2, visible.maxX - 2, boundary - 6, boundary + 6].filter {
                $0 > visible.minX && $0 < visible.maxX
            }
            #expect(probes.count >= 3)
            for px in probes {
                let x = Int((px * 2).rounded())
                guard x >= 0 && x < 780 else { continue }
                let colour = px - image.minX < image.width / 2 ? spec.left : spec.right
                let ok = pixels.matches(x, y, colour)
                #expect(ok, "page \(item.attributes.index) at x \(px)")
            }
            // Just outside the visible part (left/right, and above the mask): background.
            for (px, py) in [
                (visible.minX - 2, visible.midY), (visible.maxX + 2, visible.midY), (visible.midX, visible.minY - 2)
            ] {
                let x = Int((px * 2).rounded()), yy = Int((py * 2).rounded())
                guard x >= 0 && x < 780 && yy >= 0 && yy < 1200 else { continue }
                let ok = pixels.matches(x, yy, [0, 0, 0], tolerance: 2)
                #expect(ok, "background next to page \(item.attributes.index) at \(px),\(py)")
            }
        }
    }

    /// Halves, carousel and featured draw each fully opaque front item where the engine puts it,
    /// the page cropped to fill the cell (left half of the cell in the page's left colour).
    @Test(arguments: ["halves", "carousel", "featured"])
    func otherLayoutsDrawTheirFrontItemWhereTheEngineSays(name: String) throws {
        let fixture = try OutputFixture.make(aspectRatios: aspects)
        defer { fixture.remove() }
        let viewport = Size(width: 390, height: 700)
        let layoutName = try #require(LayoutName(rawValue: name))
        let make = try #require(RenderLayouts.layout(layoutName).make)
        let layout = try make(
            RenderLayoutContext(viewport: viewport, aspectRatios: aspects, reference: LayoutReport.Viewport()))
        let offset = try #require(layout.offset(forIndex: 1))
        var options = RenderOptions()
        options.layout = layoutName
        options.offset = offset
        options.viewport = viewport
        options.background = .black
        options.output = fixture.url.appendingPathComponent("renders/\(name).png").path
        let result = try LayoutRenderer.render(try fixture.folder(), options: options)
        let pixels = try Pixels(file: result.path)
        #expect(pixels.width == 390 && pixels.height == 700)
        let items = layout.items(at: offset).map(\.attributes)
        // The topmost opaque item over the middle of the picture.
        let middle = Point(x: offset.x + viewport.width / 2, y: offset.y + viewport.height / 2)
        let covering = items.filter { $0.alpha == 1 && $0.frame.contains(middle) }
        let front = try #require(covering.max { $0.zIndex < $1.zIndex })
        let screen = front.frame.offsetBy(dx: -offset.x, dy: -offset.y)
        let spec = fixture.specs[front.index]
        let y = Int(screen.midY.rounded())
        for (px, colour) in [
            (screen.minX + screen.width * 0.2, spec.left), (screen.minX + screen.width * 0.8, spec.right)
        ] {
            let ok = pixels.matches(Int(px.rounded()), y, colour)
            #expect(ok, "\(name): page \(front.index) at \(px),\(y)")
        }
    }

    /// The strip's move and delete animations draw the engine's animated frames.
    @Test func stripAnimationsDrawTheEnginesFrames() throws {
        let fixture = try OutputFixture.make(aspectRatios: aspects)
        defer { fixture.remove() }
        for (animation, progress) in [("move", 0.0), ("move", 1.0), ("delete", 0.25), ("delete", 0.75)] {
            let entry = try RenderLayouts.animation(named: animation)
            let context = RenderLayoutContext(
                viewport: Size(width: 390, height: 66), aspectRatios: aspects,
                reference: LayoutReport.Viewport())
            let makeState = try #require(entry.state)
            let state = try makeState(context, 2, progress)
            var options = RenderOptions()
            options.layout = .strip
            options.animation = animation
            options.index = 2
            options.progress = progress
            options.background = .black
            options.output = fixture.url.appendingPathComponent("renders/\(animation)-\(progress).png").path
            let result = try LayoutRenderer.render(try fixture.folder(), options: options)
            let pixels = try Pixels(file: result.path)
            for item in state.layout.items(at: state.offset).map(\.attributes)
            where item.alpha == 1 && item.frame.width > 8 {
                let screen = item.frame.offsetBy(dx: -state.offset.x, dy: 0)
                let x = Int((screen.minX + 3).rounded())
                guard x >= 0, x < pixels.width else { continue }
                let ok = pixels.matches(x, 33, fixture.specs[item.index].left)
                #expect(ok, "\(animation) at \(progress): page \(item.index) at x \(x)")
            }
        }
        // Move at progress 1 rests on the target page: the same picture as the resting strip on page 2.
        let strip = Layouts.Strip(viewport: Size(width: 390, height: 66), aspectRatios: aspects)
        let moveState = try #require(try RenderLayouts.animation(named: "move").state)
        let moved = try moveState(
            RenderLayoutContext(
                viewport: Size(width: 390, height: 66), aspectRatios: aspects, reference: LayoutReport.Viewport()), 2, 1
        )
        #expect(moved.offset == strip.offset(forIndex: 2))
    }

    @Test func stripPictureAtAnIndexIsTheFocusStrip() throws {
        let fixture = try OutputFixture.make(aspectRatios: aspects)
        defer { fixture.remove() }
        var strip = StripOptions()
        strip.focus = [3]
        strip.scale = 2
        _ = try StripBuilder.build(try fixture.folder(), options: strip)
        var options = RenderOptions()
        options.layout = .strip
        options.index = 3
        options.scale = 2
        let result = try LayoutRenderer.render(try fixture.folder(), options: options)
        #expect(result.path.hasSuffix("renders/strip.png"))
        #expect(result.pixelSize == PixelSize(width: 780, height: 132))
        let a = try VIPSImage.load(file: result.path)
        let b = try VIPSImage.load(file: fixture.url.appendingPathComponent("strips/strip-focus-3.png").path)
        #expect(try a.maxAbsoluteDifference(to: b) == 0)
    }

    @Test func zIndexOrderAndAlphaAreHonoured() throws {
        let fixture = try OutputFixture.make(aspectRatios: [1, 1])
        defer { fixture.remove() }
        struct Item: LayoutItem { var attributes: LayoutAttributes }
        let front = Item(
            attributes: LayoutAttributes(
                index: 0, center: Point(x: 50, y: 50), size: Size(width: 60, height: 60),
                transform: ItemTransform(tx: 5, ty: 0, scale: 1), alpha: 1, zIndex: 2))
        let back = Item(
            attributes: LayoutAttributes(
                index: 1, center: Point(x: 80, y: 50), size: Size(width: 40, height: 40),
                transform: ItemTransform(tx: 0, ty: 0, scale: 1.5), alpha: 1, zIndex: 1))
        let faded = Item(
            attributes: LayoutAttributes(
                index: 1, center: Point(x: 150, y: 50), size: Size(width: 20, height: 20),
                alpha: 0.5, zIndex: 0))
        // Listed front first: zIndex, not list order, decides what is on top.
        let scene = Scene.project(
            [front, back, faded], offset: Point(x: 0, y: 0), viewport: Size(width: 200, height: 100),
            pages: [0, 1], aspectRatios: [1, 1])
        #expect(scene.items.map(\.zIndex) == [0, 1, 2])
        // The scaled item: 40 x 1.5 = 60 wide about its centre (80, 50) -> 50...110.
        #expect(scene.items[1].imageRect == Rect(x: 50, y: 20, width: 60, height: 60))
        // The translated item: centre 55 -> 25...85.
        #expect(scene.items[2].imageRect == Rect(x: 25, y: 20, width: 60, height: 60))
        let folder = try fixture.folder()
        let pages = Dictionary(uniqueKeysWithValues: folder.pages.map { ($0.index, $0) })
        let image = try SceneRenderer(scale: 1, background: .white).render(
            scene, pages: pages, source: PageImageSource(folder: folder))
        let pixels = try Pixels(image)
        // Overlap 50...85: the front page (0) wins; its right half starts at 55.
        #expect(pixels.matches(80, 50, fixture.specs[0].right))
        #expect(pixels.matches(95, 50, fixture.specs[1].right))
        // Half alpha over white: halfway between the colour and white.
        let p = pixels[145, 50]
        let expected = fixture.specs[1].left.map { ($0 + 255) / 2 }
        #expect(zip(p.prefix(3), expected).allSatisfy { abs($0 - $1) < 12 }, "\(p) vs \(expected)")
        #expect(pixels.matches(190, 50, [255, 255, 255], tolerance: 1))
    }

    @Test func sweepWritesOneAnimatedFileWithAFramePerStep() throws {
        let fixture = try OutputFixture.make(aspectRatios: aspects)
        defer { fixture.remove() }
        for format in [VIPSImage.SaveFormat.gif, .webp] {
            var options = RenderOptions()
            options.layout = .pager
            options.viewport = Size(width: 120, height: 200)
            options.sweep = Sweep(from: 0, to: 240, steps: 5)
            options.format = format
            let result = try LayoutRenderer.render(try fixture.folder(), options: options)
            #expect(result.frames == 5)
            #expect(result.path.hasSuffix("renders/pager-sweep.\(format.fileExtension)"))
            let all = try VIPSImage.load(file: result.path, options: .init(pageCount: -1))
            #expect(all.pageCount == 5 && all.width == 120 && all.height == 5 * 200 && all.pageHeight == 200)
            // First frame rests on page 0, the last on page 2: different pictures.
            let first = try all.cropped(x: 0, y: 0, width: 120, height: 200)
            let last = try all.cropped(x: 0, y: 800, width: 120, height: 200)
            #expect(try first.meanAbsoluteDifference(to: last) > 20)
        }
        #expect(Sweep(parsing: "0:780:24") == Sweep(from: 0, to: 780, steps: 24))
        #expect(Sweep(parsing: "0:780:1") == nil && Sweep(parsing: "a:b:3") == nil && Sweep(parsing: "1:2") == nil)
        #expect(Sweep(from: 0, to: 10, steps: 3).offsets == [0, 5, 10])
    }

    @Test func unavailableLayoutsAndBadArgumentsAreClearErrors() throws {
        let fixture = try OutputFixture.make(aspectRatios: [0.7, 0.8, 0.9])
        defer { fixture.remove() }
        let folder = try fixture.folder()
        func render(_ change: (inout RenderOptions) -> Void) throws {
            var options = RenderOptions()
            change(&options)
            _ = try LayoutRenderer.render(folder, options: options)
        }
        #expect(throws: OutputFolderError.unknownPage(index: 7, count: 3)) { try render { $0.index = 7 } }
        #expect(throws: OutputFolderError.self) {
            try render {
                $0.animation = "delete"; $0.index = 1; $0.progress = 1.5
            }
        }
        #expect(throws: OutputFolderError.self) {
            try render {
                $0.animation = "move"; $0.progress = 0.5
            }
        }
        #expect(throws: OutputFolderError.self) {
            try render {
                $0.sweep = Sweep(from: 0, to: 1, steps: 2); $0.format = .png
            }
        }
        #expect(throws: OutputFolderError.self) { try render { $0.format = .gif } }
        #expect(throws: OutputFolderError.self) { try render { $0.scale = 0 } }
        #expect(throws: OutputFolderError.self) { try render { $0.viewport = Size(width: 0, height: 10) } }
        // Nothing was written by the refused runs.
        #expect(!FileManager.default.fileExists(atPath: fixture.url.appendingPathComponent("renders").path))
    }

    @Test func coloursParse() {
        #expect(RenderColor(parsing: "#ff8000") == RenderColor(red: 255, green: 128, blue: 0))
        #expect(RenderColor(parsing: "ff800080") == RenderColor(red: 255, green: 128, blue: 0, alpha: 128))
        #expect(RenderColor(parsing: "#fff") == .white)
        #expect(RenderColor(parsing: "transparent") == .transparent)
        #expect(RenderColor(parsing: "#12345") == nil && RenderColor(parsing: "blue-ish") == nil)
        #expect(RenderColor(red: 255, green: 128, blue: 0, alpha: 128).description == "#ff800080")
    }
}
