import Foundation

/// Cuts a byte stream into request lines for `quire layout --lines`, holding at most
/// `maximumLineBytes` of one line.
///
/// Each byte is looked at once (a newline search resumes where the last one ended, and a
/// finished line is never shifted out of a buffer), so a 16 MB line costs what reading it
/// costs. A line longer than the cap is reported as `.tooLong` and its remaining bytes are
/// dropped as they arrive, up to its newline, so memory stays bounded whatever the client sends.
public struct LayoutLineSplitter {
    /// What the stream held.
    public enum Event: Equatable {
        /// A complete line (without its newline), at most `maximumLineBytes` long.
        case line(Data)
        /// A line longer than the cap; `byteCount` is its full length, newline excluded.
        case tooLong(byteCount: Int)
    }

    /// The longest line passed on whole.
    public let maximumLineBytes: Int
    /// The current line's bytes so far, while it is within the cap.
    private var pending = Data()
    /// The current line's length when it passed the cap (its bytes are being dropped), else nil.
    private var dropped: Int?

    /// A splitter passing on lines of up to `maximumLineBytes` bytes.
    public init(maximumLineBytes: Int = LayoutLimits.maximumRequestBytes) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Takes the next bytes of the stream and reports every line they complete, in order.
    /// - Complexity: O(chunk.count).
    public mutating func feed(_ chunk: Data, _ emit: (Event) -> Void) {
        var start = chunk.startIndex
        while let newline = Self.newline(in: chunk, from: start) {
            take(chunk[start..<newline])
            emit(finishLine())
            start = chunk.index(after: newline)
        }
        take(chunk[start...])
    }

    /// The index of the first newline in `chunk` at or after `start` (memchr: a debug build's
    /// generic byte loop is a hundred times slower).
    private static func newline(in chunk: Data, from start: Data.Index) -> Data.Index? {
        chunk.withUnsafeBytes { raw -> Data.Index? in
            let offset = start - chunk.startIndex
            guard let base = raw.baseAddress, offset < raw.count,
                let hit = memchr(base + offset, 0x0A, raw.count - offset)
            else { return nil }
            return chunk.startIndex + (UnsafeRawPointer(hit) - base)
        }
    }

    /// Reports the last line when the stream ended without a newline.
    public mutating func finish(_ emit: (Event) -> Void) {
        if dropped != nil || !pending.isEmpty { emit(finishLine()) }
    }

    /// Adds part of the current line, switching to dropping once the line passes the cap.
    private mutating func take(_ bytes: Data) {
        guard !bytes.isEmpty else { return }
        if let count = dropped {
            dropped = count + bytes.count
        } else if pending.count + bytes.count > maximumLineBytes {
            dropped = pending.count + bytes.count
            pending = Data()
        } else {
            pending.append(bytes)
        }
    }

    /// The current line as an event; the splitter then starts the next one.
    private mutating func finishLine() -> Event {
        defer { pending = Data(); dropped = nil }
        if let count = dropped { return .tooLong(byteCount: count) }
        return .line(pending)
    }
}

extension LayoutService {
    /// Answers each non-empty line of `input` through `emit`, in order, as lines arrive
    /// (`quire layout --lines`). One `LayoutCache` serves every line, so requests over the
    /// same pages reuse the built page list. A line longer than `maximumLineBytes` gets an
    /// error reply (without an id: the line is not kept to find it) and the next line is answered.
    public static func answerLines(
        from input: FileHandle,
        maximumLineBytes: Int = LayoutLimits.maximumRequestBytes,
        emit: (String) -> Void
    ) {
        let cache = LayoutCache()
        var splitter = LayoutLineSplitter(maximumLineBytes: maximumLineBytes)
        func answer(_ event: LayoutLineSplitter.Event) {
            switch event {
            case .line(let line):
                let trimmed = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty else { return }
                emit(respond(toJSON: Data(trimmed.utf8), cache: cache).response.text)
            case .tooLong(let count):
                let error = LayoutRequestError(
                    field: "",
                    message:
                        "the request line is \(count) bytes, longer than the limit of \(maximumLineBytes); it was skipped"
                )
                emit(error.json.text)
            }
        }
        while true {
            let chunk = input.availableData
            if chunk.isEmpty { break }
            splitter.feed(chunk, answer)
        }
        splitter.finish(answer)
    }
}
