import Foundation

/// Writes a PDF file object by object, front to back, with the cross-reference table and
/// trailer at the end (ISO 32000-1, section 7.5).
///
/// Objects are numbered when reserved, so a page can name its parent before the parent is
/// written; each object's bytes go to the file when written, so memory holds one object (a page's
/// image is copied from its file in pieces). Streams are written as PDF/A asks: an end-of-line
/// after `stream` and before `endstream`, with `/Length` counting neither.
final class PDFObjectWriter {
    /// A reserved object number.
    struct Ref: Hashable {
        let number: Int
        var text: String { "\(number) 0 R" }
    }

    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var offset = 0
    private var offsets: [Int: Int] = [:]
    private var nextNumber = 1
    /// Two hashes (two seeds) of every byte written: the file identifier is made of them, so the
    /// same content always gets the same identifier, wherever it is written.
    private var hashes = (ContentHash(seed: 0x5155), ContentHash(seed: 0x4952))
    /// Bytes written so far.
    var bytesWritten: Int { offset }

    /// Starts the file at `path` (created or truncated) with the header of PDF 1.`minor` and the
    /// binary comment that tells transfer tools the file is binary.
    init(path: String, minorVersion: Int) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw ExportError(path: path, reason: "cannot be created (\(String(cString: strerror(errno))))")
        }
        self.handle = handle
        write("%PDF-1.\(minorVersion)\n")
        write([0x25, 0xE2, 0xE3, 0xCF, 0xD3, 0x0A])
    }

    /// A new object number, to be written later with `object(_:_:)`.
    func reserve() -> Ref {
        defer { nextNumber += 1 }
        return Ref(number: nextNumber)
    }

    /// Writes a dictionary (or any direct value) as object `ref`.
    func object(_ ref: Ref, _ body: String) throws {
        try begin(ref)
        write(body)
        write("\nendobj\n")
        try flushIfLarge()
    }

    /// Writes a stream object: `dictionary` (without `/Length`, which is added) and `data`.
    func stream(_ ref: Ref, dictionary: String, data: [UInt8]) throws {
        try begin(ref)
        write("<< \(dictionary) /Length \(data.count) >>\nstream\n")
        write(data)
        write("\nendstream\nendobj\n")
        try flushIfLarge()
    }

    /// Writes a stream object whose data is the file at `path`, copied as it is in pieces.
    func stream(_ ref: Ref, dictionary: String, file path: String) throws {
        guard let input = FileHandle(forReadingAtPath: path) else {
            throw ExportError(path: path, reason: "cannot be read")
        }
        defer { try? input.close() }
        let size = Int(try input.seekToEnd())
        try input.seek(toOffset: 0)
        try begin(ref)
        write("<< \(dictionary) /Length \(size) >>\nstream\n")
        try flush()
        var copied = 0
        while copied < size {
            guard let piece = try input.read(upToCount: min(1 << 20, size - copied)), !piece.isEmpty else {
                throw ExportError(path: path, reason: "changed while being read")
            }
            try handle.write(contentsOf: piece)
            hashes.0.update(piece)
            hashes.1.update(piece)
            copied += piece.count
            offset += piece.count
        }
        write("\nendstream\nendobj\n")
    }

    /// Writes the cross-reference table and the trailer, and closes the file. The trailer's file
    /// identifier (which PDF/A requires) is 16 bytes of the hashes of everything written before it.
    /// - Parameters:
    ///   - root: the catalog.
    ///   - info: the document information dictionary, if any.
    func finish(root: Ref, info: Ref?) throws {
        var id: [UInt8] = []
        for value in [hashes.0.finalize(), hashes.1.finalize()] {
            for shift in stride(from: 56, through: 0, by: -8) {
                id.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            }
        }
        let count = nextNumber
        let start = offset
        write("xref\n0 \(count)\n0000000000 65535 f \n")
        for number in 1..<count {
            guard let at = offsets[number] else {
                throw ExportError(path: "pdf", reason: "object \(number) reserved but never written")
            }
            let digits = String(at)
            write(String(repeating: "0", count: max(0, 10 - digits.count)) + digits + " 00000 n \n")
        }
        let idHex = PDFSyntax.hex(id)
        write(
            "trailer\n<< /Size \(count) /Root \(root.text)\(info.map { " /Info \($0.text)" } ?? "") /ID [<\(idHex)> <\(idHex)>] >>\n"
        )
        write("startxref\n\(start)\n%%EOF\n")
        try flush()
        try handle.close()
    }

    /// Closes the file without finishing it (a failed export; the caller removes it).
    func abandon() { try? handle.close() }

    private func begin(_ ref: Ref) throws {
        guard offsets[ref.number] == nil, ref.number < nextNumber else {
            throw ExportError(path: "pdf", reason: "object \(ref.number) written twice or never reserved")
        }
        offsets[ref.number] = offset
        write("\(ref.number) 0 obj\n")
    }

    private func write(_ text: String) { write(Array(text.utf8)) }

    private func write(_ bytes: [UInt8]) {
        buffer += bytes
        hashes.0.update(bytes)
        hashes.1.update(bytes)
        offset += bytes.count
    }

    private func flushIfLarge() throws {
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
