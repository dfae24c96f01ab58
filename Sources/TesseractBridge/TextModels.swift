import Foundation
import QuireSync

/// Tesseract's models on this machine: the `tessdata` folder and the languages it holds.
public struct TextModels: Sendable, Hashable {
    /// The folder of the `.traineddata` files.
    public var folder: String
    /// The languages installed (their `.traineddata` file names), sorted; `osd` (orientation
    /// and script detection) is one of them when installed.
    public var installed: [String]

    /// The folders looked in when `TESSDATA_PREFIX` is not set: where Debian's (5, then 4)
    /// `tesseract-ocr-*` packages and a source build put them.
    public static let standardFolders = [
        "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
        "/usr/share/tessdata", "/usr/local/share/tessdata"
    ]

    /// The models the `tesseract` command would use: `TESSDATA_PREFIX` when it is set (the
    /// tessdata folder itself, or its parent as Tesseract 4 took it) and exists (Tesseract 5
    /// ignores one that does not), else the first standard folder holding any; nil when there
    /// are none.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> TextModels? {
        var folders = standardFolders
        if let prefix = environment["TESSDATA_PREFIX"], !prefix.isEmpty, FileManager.default.fileExists(atPath: prefix)
        {
            folders = [prefix, prefix + "/tessdata"]
        }
        for folder in folders {
            let languages = Self.languages(in: folder)
            if !languages.isEmpty { return TextModels(folder: folder, installed: languages) }
        }
        return nil
    }

    /// The languages with a `.traineddata` file in `folder`, sorted.
    public static func languages(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { name -> String? in
            guard name.hasSuffix(".traineddata"), !name.hasPrefix(".") else { return nil }
            return String(name.dropLast(".traineddata".count))
        }.sorted()
    }

    /// Languages installed for reading text: all but `osd`, which only tells orientation.
    public var readable: [String] { installed.filter { $0 != "osd" } }
    /// Whether orientation can be detected (the `osd` model is installed).
    public var detectsOrientation: Bool { installed.contains("osd") }
}

/// Engines of one language set, made when first needed and reused: at most one per page in
/// flight, since a page takes an engine for the time it reads and gives it back.
///
/// Pages run on threads of their own (each page may get a fresh thread, see the batch's time
/// limit), so the engines are kept in a pool rather than per thread; either way a model is
/// loaded once per concurrent reader, never per page.
public final class TextEnginePool: Sendable {
    public let models: TextModels
    public let languages: String
    /// The engines waiting for a page, and how many were made (idle or in use).
    private struct State {
        var idle: [TextEngine] = []
        var made = 0
    }
    private let state = LockedValue(State())
    /// Engines made so far (idle or in use).
    public var created: Int { state.withLock { $0.made } }

    /// A pool of engines reading `languages` with `models`.
    public init(models: TextModels, languages: String) {
        self.models = models
        self.languages = languages
    }

    /// Runs `body` with an engine of its own (an idle one, or a new one), then gives it back.
    /// - Throws: `TextEngineError` when a new engine cannot load its models; what `body` throws.
    public func withEngine<T>(_ body: (TextEngine) throws -> T) throws -> T {
        let engine = try take()
        defer { giveBack(engine) }
        return try body(engine)
    }

    private func take() throws -> TextEngine {
        // A new engine loads its models outside the lock: other pages keep taking and giving back.
        if let engine = state.withLock({ $0.idle.popLast() }) { return engine }
        let engine = try TextEngine(models: models, languages: languages)
        state.withLock { $0.made += 1 }
        return engine
    }

    private func giveBack(_ engine: TextEngine) {
        state.withLock { $0.idle.append(engine) }
    }
}
