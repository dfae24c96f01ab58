import QuireGeometry

/// Reads the hOCR that Tesseract writes (and `quire process --ocr` keeps as `OUT/text/NNNN.hocr`)
/// into an `OCRPage`.
///
/// hOCR is XHTML whose elements carry their meaning in `class` (`ocr_page`, `ocr_line`,
/// `ocrx_word`, ...) and their geometry in `title` (`bbox x0 y0 x1 y1; baseline s o; x_wconf c`).
/// This reader is a small tolerant tag scanner rather than an XML parser: it needs no libxml2 in
/// the binary, it reads files a person edited by hand, and on anything else (a file that is not
/// hOCR, broken markup, numbers out of range) it returns what it could read or throws, never traps.
/// Every number is range-checked before it becomes a coordinate.
public enum HOCRReader {
    /// Largest coordinate taken from a bbox: pages are at most `--max-pixels` (2^31) pixels, so no
    /// side of a real page is longer than this.
    public static let maxCoordinate = 1_000_000.0
    /// Most words read from one file; more is not a page of text (a broken or hostile file).
    public static let maxWords = 200_000

    /// The page in `bytes`.
    /// - Throws: `HOCRError` when there is no `ocr_page` with a valid bbox.
    public static func read(_ bytes: [UInt8]) throws(HOCRError) -> OCRPage {
        var scanner = TagScanner(bytes)
        var page: (width: Int, height: Int)?
        var lines: [OCRLine] = []
        var line: OCRLine?
        // Open elements: (tag name, its role) so a close tag ends the right thing.
        var stack: [(name: String, role: Role)] = []
        var word: (title: Title, rightToLeft: Bool, text: String)?
        var rtlDepth: [Bool] = []
        var wordCount = 0

        func finishLine() {
            if let done = line, !done.words.isEmpty { lines.append(done) }
            line = nil
        }

        while let token = scanner.next() {
            switch token {
            case .open(let name, let attributes, let selfClosing):
                let classes = attributes["class"]?.split(separator: " ").map(String.init) ?? []
                let title = Title(attributes["title"] ?? "")
                let dir = attributes["dir"]?.lowercased()
                let inheritedRTL = rtlDepth.last ?? false
                let rtl = dir == "rtl" ? true : dir == "ltr" ? false : inheritedRTL
                var role = Role.other
                if classes.contains("ocr_page"), page == nil, let box = title.box, box.width >= 1, box.height >= 1 {
                    page = (Int(box.maxX), Int(box.maxY))
                } else if classes.contains(where: { lineClasses.contains($0) }), let box = title.box {
                    finishLine()
                    line = OCRLine(box: box, baseline: title.baseline, words: [])
                    role = .line
                } else if classes.contains("ocrx_word"), word == nil, title.box != nil {
                    word = (title, rtl, "")
                    role = .word
                }
                if !selfClosing {
                    stack.append((name, role))
                    rtlDepth.append(rtl)
                }
            case .close(let name):
                guard let at = stack.lastIndex(where: { $0.name == name }) else { continue }
                for closed in stack[at...].reversed() {
                    switch closed.role {
                    case .word:
                        if let w = word, let box = w.title.box {
                            let text = w.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                            if !text.isEmpty, wordCount < maxWords {
                                if line == nil { line = OCRLine(box: box, words: []) }
                                line!.words.append(
                                    OCRWord(
                                        text: text, box: box, confidence: w.title.confidence, rightToLeft: w.rightToLeft
                                    ))
                                wordCount += 1
                            }
                        }
                        word = nil
                    case .line: finishLine()
                    case .other: break
                    }
                }
                stack.removeSubrange(at...)
                rtlDepth.removeSubrange(min(at, rtlDepth.count)...)
            case .text(let text):
                if word != nil { word!.text += text }
            }
        }
        finishLine()
        guard let page else { throw .noPage }
        return OCRPage(width: page.width, height: page.height, lines: lines)
    }

    /// hOCR's classes for a line of text (Tesseract writes the last three for captions, headers
    /// and text floating beside pictures).
    static let lineClasses: Set<String> = ["ocr_line", "ocr_caption", "ocr_header", "ocr_textfloat"]

    private enum Role { case line, word, other }

    /// The properties of an hOCR `title`: `bbox x0 y0 x1 y1; baseline s o; x_wconf c`.
    struct Title {
        var box: Rect?
        var baseline: (slope: Double, offset: Double)?
        var confidence: Double?

        init(_ text: String) {
            for property in text.split(separator: ";") {
                let parts = property.split(separator: " ")
                guard let key = parts.first else { continue }
                let numbers = parts.dropFirst().map { Double($0) }
                switch key {
                case "bbox" where numbers.count == 4:
                    guard let n = Self.coordinates(numbers), n[2] >= n[0], n[3] >= n[1] else { continue }
                    box = Rect(x: n[0], y: n[1], width: n[2] - n[0], height: n[3] - n[1])
                case "baseline" where numbers.count == 2:
                    guard let s = numbers[0], let o = numbers[1], abs(s) <= 10, abs(o) <= HOCRReader.maxCoordinate
                    else { continue }
                    baseline = (s, o)
                case "x_wconf" where numbers.count == 1:
                    if let c = numbers[0], (0...100).contains(c) { confidence = c }
                default: continue
                }
            }
        }

        private static func coordinates(_ numbers: [Double?]) -> [Double]? {
            let values = numbers.compactMap { $0 }
            guard values.count == numbers.count,
                values.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= HOCRReader.maxCoordinate })
            else { return nil }
            return values
        }
    }
}

/// Why an hOCR file could not be read.
public enum HOCRError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `ocr_page` element with a bbox: not an hOCR page.
    case noPage

    public var description: String {
        switch self {
        case .noPage: "not an hOCR page (no ocr_page with a bbox)"
        }
    }
}

/// Tags and text of an (X)HTML document, with character references decoded. Comments, `<?...?>`
/// and `<!...>` are skipped; a `<` that starts no tag is text.
struct TagScanner {
    enum Token {
        case open(name: String, attributes: [String: String], selfClosing: Bool)
        case close(name: String)
        case text(String)
    }

    private let bytes: [UInt8]
    private var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> Token? {
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "<") {
                if let token = tag() { return token }
                continue
            }
            let start = i
            while i < bytes.count, bytes[i] != UInt8(ascii: "<") { i += 1 }
            return .text(Self.decode(bytes[start..<i]))
        }
        return nil
    }

    /// A tag at `i` (which is `<`); nil after skipping a comment or declaration.
    private mutating func tag() -> Token? {
        let start = i
        if starts(with: "<!--") {
            i = find("-->", from: i + 4).map { $0 + 3 } ?? bytes.count
            return nil
        }
        if starts(with: "<!") || starts(with: "<?") {
            i = find(">", from: i).map { $0 + 1 } ?? bytes.count
            return nil
        }
        i += 1
        let closing = i < bytes.count && bytes[i] == UInt8(ascii: "/")
        if closing { i += 1 }
        let nameStart = i
        while i < bytes.count, Self.isNameByte(bytes[i]) { i += 1 }
        guard i > nameStart else {
            i = start + 1
            return .text("<")
        }
        let name = String(decoding: bytes[nameStart..<i], as: UTF8.self).lowercased()
        var attributes: [String: String] = [:]
        var selfClosing = false
        while i < bytes.count, bytes[i] != UInt8(ascii: ">") {
            let b = bytes[i]
            if b == UInt8(ascii: "/") {
                selfClosing = true
                i += 1
            } else if Self.isNameByte(b) {
                let keyStart = i
                while i < bytes.count, Self.isNameByte(bytes[i]) { i += 1 }
                let key = String(decoding: bytes[keyStart..<i], as: UTF8.self).lowercased()
                while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13 { i += 1 }
                var value = ""
                if i < bytes.count, bytes[i] == UInt8(ascii: "=") {
                    i += 1
                    while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13 {
                        i += 1
                    }
                    if i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                        let quote = bytes[i]
                        let valueStart = i + 1
                        let end = bytes[valueStart...].firstIndex(of: quote) ?? bytes.count
                        value = Self.decode(bytes[valueStart..<end])
                        i = min(bytes.count, end + 1)
                    } else {
                        let valueStart = i
                        while i < bytes.count, bytes[i] > 32, bytes[i] != UInt8(ascii: ">") { i += 1 }
                        value = Self.decode(bytes[valueStart..<i])
                    }
                }
                if attributes[key] == nil { attributes[key] = value }
            } else {
                i += 1
            }
        }
        i = min(bytes.count, i + 1)
        return closing ? .close(name: name) : .open(name: name, attributes: attributes, selfClosing: selfClosing)
    }

    private func starts(with text: String) -> Bool {
        let t = Array(text.utf8)
        return i + t.count <= bytes.count && bytes[i..<(i + t.count)].elementsEqual(t)
    }

    private func find(_ text: String, from: Int) -> Int? {
        let t = Array(text.utf8)
        guard from + t.count <= bytes.count else { return nil }
        var j = from
        while j + t.count <= bytes.count {
            if bytes[j] == t[0], bytes[j..<(j + t.count)].elementsEqual(t) { return j }
            j += 1
        }
        return nil
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 97 && b <= 122) || (b >= 65 && b <= 90) || (b >= 48 && b <= 57) || b == 45 || b == 95 || b == 58
    }

    /// Text with `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` and `&#xH;` decoded; an
    /// unknown or broken reference stays as written; invalid UTF-8 becomes U+FFFD.
    static func decode(_ slice: ArraySlice<UInt8>) -> String {
        let text = String(decoding: slice, as: UTF8.self)
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let name = after[..<semi]
            var scalar: Unicode.Scalar?
            switch name {
            case "amp": scalar = "&"
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if name.hasPrefix("#") {
                    scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                }
            }
            if let scalar, scalar.value != 0 {
                out.unicodeScalars.append(scalar)
                rest = after[after.index(after: semi)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }
}
