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
///
/// Nothing in a walked folder vanishes silently: a FIFO, socket or device, a dangling symbolic
/// link and a sub-folder that cannot be read are returned as inputs too (whatever their name),
/// so opening them reports each as one error (`not-a-file`, `dangling-link`, `unreadable`).
/// Names that are not valid UTF-8 (which Swift strings cannot hold) are read as raw bytes and
/// taken through an alias path (`/proc/self/fd/N`, a descriptor opened on the raw name); layout.json
/// names them with their other bytes escaped as `\xHH`.
public enum InputDiscovery {
    /// Extensions taken from folders (compared case-insensitively).
    public static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "tif", "tiff", "webp", "heic", "heif", "avif", "gif", "pdf", "jxl"
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
            let given = commandLineAlias(for: input) ?? DiscoveredInput(path: input, source: input)
            var info = stat()
            if stat(given.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                result += walk(folder: given.path, excluding: excluded)
            } else {
                result.append(given)
            }
        }
        return result
    }

    /// The image files under `folder`, in natural order of their relative paths, and every
    /// entry that cannot be taken and must be reported (see the type's discussion).
    /// - Complexity: O(n log n) comparisons for n files.
    static func walk(folder: String, excluding excluded: Set<String> = []) -> [DiscoveredInput] {
        let root = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        // Relative path as shown -> path to open (differs for names that are not UTF-8).
        var found: [(source: String, path: String)] = []
        var pending = [(source: "", path: root)]
        var visited: Set<String> = []
        while let (sub, dir) = pending.popLast() {
            // A symlinked folder pointing at an ancestor would otherwise loop forever.
            let real = resolved(dir)
            guard !excluded.contains(real), visited.insert(real).inserted else { continue }
            guard let names = entries(of: dir) else {
                // Unreadable (permissions): reported when opened (the folder given is named as given).
                found.append((sub.isEmpty ? folder : sub, dir))
                continue
            }
            for raw in names where raw.first != UInt8(ascii: ".") {
                let name = String(validating: raw, as: UTF8.self)
                let shown = name ?? escaped(raw)
                let rel = sub.isEmpty ? shown : sub + "/" + shown
                guard let path = name.map({ dir + "/" + $0 }) ?? alias(raw, in: dir) else {
                    found.append((rel, dir + "/" + shown))
                    continue
                }
                var info = stat(), link = stat()
                guard stat(path, &info) == 0 else {
                    // A dangling symbolic link (or an entry gone since it was listed): reported.
                    if lstat(path, &link) == 0 { found.append((rel, path)) }
                    continue
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if shown != stateFolderName { pending.append((rel, path)) }
                case S_IFREG:
                    let ext = shown.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? ""
                    if shown.contains("."), imageExtensions.contains(ext.lowercased()) { found.append((rel, path)) }
                default:
                    // FIFOs, sockets, devices: refused (`not-a-file`) when opened, never opened here.
                    found.append((rel, path))
                }
            }
        }
        return found.sorted { NaturalOrder.comparePaths($0.source, $1.source) }.map {
            DiscoveredInput(path: $0.path, source: $0.source)
        }
    }

    /// The names in folder `dir` as raw bytes (`.` and `..` left out), or nil when it cannot
    /// be read. `FileManager.contentsOfDirectory` drops names that are not UTF-8; `readdir`
    /// does not.
    static func entries(of dir: String) -> [[UInt8]]? {
        guard let stream = opendir(dir) else { return nil }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name == [46] || name == [46, 46] { continue }
            names.append(name)
        }
        return names
    }

    /// Linux's `O_PATH` (Glibc exports it only under `_GNU_SOURCE`): a descriptor that names a
    /// file without opening it for reading, so it neither blocks on a FIFO nor needs read access.
    static let openPathOnly: Int32 = 0o10_000_000

    /// How alias paths begin: a descriptor of this process opened on a name that is not UTF-8.
    public static let aliasPrefix = "/proc/self/fd/"

    /// A path naming the entry `raw` of `dir` that a Swift string can hold: `/proc/self/fd/N`
    /// for a descriptor opened (`O_PATH`, no read yet, so a FIFO does not block) on the raw
    /// name. The descriptor stays open for the life of the process (one per such name).
    static func alias(_ raw: [UInt8], in dir: String) -> String? {
        alias(Array(dir.utf8) + [UInt8(ascii: "/")] + raw)
    }

    /// An alias path for the raw path `bytes` (see `alias(_:in:)`), or nil when it cannot be
    /// opened.
    static func alias(_ bytes: [UInt8]) -> String? {
        let fd = (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, openPathOnly | O_CLOEXEC) }
        }
        return fd >= 0 ? aliasPrefix + String(fd) : nil
    }

    /// `raw` as text: ASCII printable bytes as they are, every other byte (and `\\`) as `\xHH`,
    /// so the name in layout.json and on stderr shows which bytes it holds.
    static func escaped(_ raw: [UInt8]) -> String {
        raw.map {
            (0x20..<0x7F).contains($0) && $0 != UInt8(ascii: "\\")
                ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true).leftPadded()
        }
        .joined()
    }

    /// A command-line input whose bytes are not UTF-8: Swift decoded it with U+FFFD in place of
    /// the bad bytes, a name no file has. Its raw bytes are found in `argv` (the argument that
    /// decodes to `input`), opened, and named escaped. Nil for every other input.
    static func commandLineAlias(for input: String) -> DiscoveredInput? {
        guard input.unicodeScalars.contains("\u{FFFD}") else { return nil }
        for i in 0..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[i] else { continue }
            let raw = Array(UnsafeBufferPointer(start: argument, count: strlen(argument))).map { UInt8(bitPattern: $0) }
            guard String(validating: raw, as: UTF8.self) == nil, String(decoding: raw, as: UTF8.self) == input else {
                continue
            }
            var info = stat()
            let exists = (raw + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) == 0 }
            }
            guard exists, let path = alias(raw) else { return nil }
            return DiscoveredInput(path: path, source: escaped(raw))
        }
        return nil
    }

    /// The name of the state folder `quire process` keeps in OUT (never an input).
    static let stateFolderName = ".quire"

    /// The absolute path of `path` with symbolic links resolved (how excluded folders compare).
    static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

private extension String {
    /// Two hex digits (a byte's).
    func leftPadded() -> String { count < 2 ? "0" + self : self }
}
