import Foundation
import QuireImaging
import QuireKit
import VipsBridge
import Testing
@testable import quire

@Suite struct DetectCommandTests {
    @Test func parsesInputsAndTiming() throws {
        let command = try DetectCommand.parse(["a.jpg", "dir", "--timing"])
        #expect(command.inputs == ["a.jpg", "dir"])
        #expect(command.timing)
    }

    @Test func foldersExpandInNaturalOrder() throws {
        let dir = NSTemporaryDirectory() + "quire-detect-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["page10.jpg", "page2.jpg", ".hidden.jpg", "page1.jpg"] {
            FileManager.default.createFile(atPath: "\(dir)/\(name)", contents: Data([0]))
        }
        try FileManager.default.createDirectory(atPath: "\(dir)/sub", withIntermediateDirectories: true)
        let files = DetectCommand.expand([dir, "x.png"]).map { ($0 as NSString).lastPathComponent }
        #expect(files == ["page1.jpg", "page2.jpg", "page10.jpg", "x.png"])
    }

    /// A FIFO is refused at once: opening it used to wait for a writer for ever. The guard
    /// thread opens it for writing after 10 s, so a regression fails instead of hanging.
    @Test func aFIFOIsRefusedAtOnce() throws {
        let dir = NSTemporaryDirectory() + "quire-detect-fifo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/page.jpg"
        try #require(mkfifo(fifo, 0o644) == 0)
        // Harmless once the test is done: with no reader (or no FIFO) the open just fails.
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) {
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        do {
            _ = try Detector.detect(file: fifo)
            Issue.record("a FIFO was detected")
        } catch let error as ImagingError {
            #expect(error.kind.code == "not-a-file")
            #expect(error.reason == "is a FIFO (named pipe), not a regular file")
        }
        // Found in a folder, it is taken too (and refused when opened), not skipped.
        #expect(DetectCommand.expand([dir]) == [fifo])
    }

    @Test func maxPixelsIsTheSameOptionAsProcess() throws {
        #expect(try DetectCommand.parse(["a.jpg"]).maxPixels == ProcessCommand.parse(["a.jpg", "-o", "out"]).maxPixels)
        #expect(try DetectCommand.parse(["a.jpg", "--max-pixels", "2M"]).maxPixels == PixelCount(2_000_000))
        #expect(throws: (any Error).self) { try DetectCommand.parseAsRoot(["a.jpg", "--max-pixels", "lots"]) }
        let dir = NSTemporaryDirectory() + "quire-detect-max-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pixels = [UInt8](repeating: 128, count: 300 * 200 * 3)
        try VIPSImage.fromPixels(pixels, width: 300, height: 200, bands: 3).save(
            to: dir + "/p.png", options: .init(format: .png))
        do {
            _ = try Detector.detect(file: dir + "/p.png", maxPixels: 50_000)
            Issue.record("a 60,000-pixel page passed a 50,000-pixel limit")
        } catch let error as ImagingError {
            #expect(error.kind == .tooLarge)
        }
        #expect(try Detector.detect(file: dir + "/p.png", maxPixels: 60_000).width == 300)
    }

    @Test func unreadableInputIsAnErrorNotACrash() {
        #expect(throws: (any Error).self) { _ = try Detector.detect(file: "/nonexistent/page.jpg") }
    }
}
