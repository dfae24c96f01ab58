import ArgumentParser
import Foundation
import QuireKit
import Testing
@testable import quire

@Suite struct StripRenderCommandTests {
    @Test func subcommandsAreRegistered() {
        let names = Quire.configuration.subcommands.map { $0.configuration.commandName }
        #expect(names.contains("strip") && names.contains("render"))
    }

    @Test func badOptionsAreRejectedWhileParsing() {
        #expect(throws: (any Error).self) { try StripCommand.parse(["out", "--scale", "4"]) }
        #expect(throws: (any Error).self) { try StripCommand.parse(["out", "--format", "bmp"]) }
        #expect(throws: (any Error).self) { try StripCommand.parse(["out", "--background", "nope"]) }
        #expect(throws: (any Error).self) { try StripCommand.parse(["out", "--background", "transparent"]) }
        #expect(throws: (any Error).self) { try RenderCommand.parse(["out", "--offset", "1,2,3"]) }
        #expect(throws: (any Error).self) { try RenderCommand.parse(["out", "--viewport", "390"]) }
        #expect(throws: (any Error).self) { try RenderCommand.parse(["out", "--sweep", "0:10"]) }
        #expect(throws: (any Error).self) { try RenderCommand.parse(["out", "--layout", "grid"]) }
        #expect(throws: (any Error).self) { try RenderCommand.parse(["out", "--animation", "move", "--index", "1"]) }
        #expect(throws: (any Error).self) { try RenderCommand.parse(["out", "--progress", "0.5"]) }
    }

    @Test func optionsMapToTheLibrary() throws {
        let strip = try StripCommand.parse([
            "out", "--height", "80", "--scale", "2", "--format", "png", "--max-width", "900",
            "--focus", "1", "--focus", "3", "--contact-sheet", "--background", "#102030"
        ])
        .makeOptions()
        #expect(strip.height == 80 && strip.scale == 2 && strip.format == .png && strip.maxWidth == 900)
        #expect(
            strip.focus == [1, 3] && strip.contactSheet && strip.background == RenderColor(red: 16, green: 32, blue: 48)
        )
        let render = try RenderCommand.parse([
            "out", "--layout", "strip", "--offset=-40", "--viewport", "390x66", "--scale", "3"
        ])
        .makeOptions()
        #expect(render.layout == .strip && render.offset == Point(x: -40, y: 0) && render.offsetIsScalar)
        #expect(render.viewport == Size(width: 390, height: 66) && render.scale == 3)
        let negative = try RenderCommand.parse(["out", "--offset", "-176.5", "--sweep", "-176.5:200:4"]).makeOptions()
        #expect(negative.offset == Point(x: -176.5, y: 0) && negative.sweep == Sweep(from: -176.5, to: 200, steps: 4))
        let sweep = try RenderCommand.parse(["out", "--sweep", "0:780:10", "--format", "webp", "--offset", "0,5"])
            .makeOptions()
        #expect(sweep.sweep == Sweep(from: 0, to: 780, steps: 10) && sweep.format == .webp && !sweep.offsetIsScalar)
    }

    @Test func missingOutputFolderIsAClearError() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("quire-none-\(UUID().uuidString)")
            .path
        do {
            try StripCommand.parse([missing]).run()
            Issue.record("strip ran on a missing folder")
        } catch {
            #expect("\(error)".contains("is empty or missing"))
        }
        do {
            try RenderCommand.parse([missing]).run()
            Issue.record("render ran on a missing folder")
        } catch {
            #expect("\(error)".contains("is empty or missing"))
        }
    }
}
