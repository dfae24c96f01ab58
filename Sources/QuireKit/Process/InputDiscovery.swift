import Foundation

/// One input file found by discovery.
public struct DiscoveredInput: Sendable, Hashable, Codable {
    /// Where to read it.
    public var path: String
    /// How layout.json names it: the path as given, or relative to the folder it was found in.
    public var source: String

    /// An input read from `path` and named `source` in layout.json.
    public init(path: String, source: String) {
        self.path = path
        self.source = source
    }
}

/// Turns the command line's files and folders into the ordered list of input files.
///
/// Files named on the command line are always taken (so a bad one is reported). Folders are
/// walked recursively in natural order (`page2` before `page10`), skipping hidden files and
/// folders and taking only files with an image or PDF extension, so a `README` or `truth.json`
/// beside the scans is not an error. The output folder (`excluding`) and every `.quire` folder
/// are never walked: with `quire process scans -o scans/out`, a second run must not take the
/// first run's pages as new inputs.
public enum InputDiscovery {
    /// Extensions taken from folders (compared case-insensitively).
    public static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "tif", "tiff", "webp", "heic", "heif", "avif", "gif", "pdf", "jxl",
    ]

    /// - Returns: the inputs in order; a missing path is returned as an input too (its
    ///   failure is reported when it is opened, in order with the rest).
    /// - Parameters:
    ///   - inputs: files and folders, in the order given.
    ///   - excluding: folders whose contents are never taken from a walk (the output folder);
    ///     compared after resolving symbolic links.
    public static func discover(_ inputs: [String], excluding: [String] = []) -> [DiscoveredInput] {
        var result: [DiscoveredInput] = []
        let excluded = Set(excluding.map(resolved))
        for input in inputs {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
                result += walk(folder: input, excluding: excluded)
            } else {
                result.append(DiscoveredInput(path: input, source: input))
            }
        }
        return result
    }

    /// The image files under `folder`, in natural order of their relative paths.
    /// - Complexity: O(n log n) comparisons for n files.
    static func walk(folder: String, excluding excluded: Set<String> = []) -> [DiscoveredInput] {
        let root = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        var relative: [String] = []
        var pending = [""]
        var visited: Set<String> = []
        while let sub = pending.popLast() {
            let dir = sub.isEmpty ? root : root + "/" + sub
            // A symlinked folder pointing at an ancestor would otherwise loop forever.
            let real = resolved(dir)
            guard !excluded.contains(real), visited.insert(real).inserted else { continue }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for name in names where !name.hasPrefix(".") {
                let rel = sub.isEmpty ? name : sub + "/" + name
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: root + "/" + rel, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    if name != stateFolderName { pending.append(rel) }
                } else if imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                    relative.append(rel)
                }
            }
        }
        return relative.sorted(by: NaturalOrder.comparePaths).map {
            DiscoveredInput(path: root + "/" + $0, source: $0)
        }
    }

    /// The name of the state folder `quire process` keeps in OUT (never an input).
    static let stateFolderName = ".quire"

    /// The absolute path of `path` with symbolic links resolved (how excluded folders compare).
    static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
