import Foundation
import QuireImaging

/// One `quire detect` result as the JSON object its schema (`quire.detect-1.schema.json`)
/// describes: the quad and the skew are written as explicit nulls so every result has the same
/// keys; numbers are rounded (corners and confidences to 0.01, the skew to 0.001 degrees) because
/// more digits than the detector resolves would only make diffs noisy.
public struct DetectionRecord: Encodable, Sendable {
    /// The result written.
    public let result: DetectionResult
    /// Whether `detectionMs` is written (`quire detect --timing`).
    public let timing: Bool

    /// The record of `result`, with its detection time when `timing`.
    public init(_ result: DetectionResult, timing: Bool) {
        self.result = result
        self.timing = timing
    }

    private enum Key: String, CodingKey {
        case source, page, width, height, confidence, quad, skewDegrees, kind, error, code
        case rotation, rotationConfidence, detectionMs
    }

    /// Encodes the object; optional fields other than the quad and skew appear only when set.
    public func encode(to encoder: any Encoder) throws {
        let r = result
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(r.source, forKey: .source)
        try c.encode(r.width, forKey: .width)
        try c.encode(r.height, forKey: .height)
        try c.encode(Self.rounded(r.confidence, 100), forKey: .confidence)
        let corners = r.quad.map { q in q.corners.map { [Self.rounded($0.x, 100), Self.rounded($0.y, 100)] } }
        try c.encode(corners, forKey: .quad)
        try c.encode(r.skewDegrees.map { Self.rounded($0, 1000) }, forKey: .skewDegrees)
        if r.page > 0 { try c.encode(r.page, forKey: .page) }
        try c.encodeIfPresent(r.kind?.rawValue, forKey: .kind)
        try c.encodeIfPresent(r.error, forKey: .error)
        try c.encodeIfPresent(r.errorCode, forKey: .code)
        if r.error == nil {
            try c.encode(r.rotation, forKey: .rotation)
            try c.encode(r.rotationConfidence.map { Self.rounded($0, 100) }, forKey: .rotationConfidence)
        }
        if timing, let ms = r.detectionMilliseconds { try c.encode(Self.rounded(ms, 100), forKey: .detectionMs) }
    }

    /// `value` rounded to `1 / scale`.
    private static func rounded(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale }
}

/// `quire detect`'s whole output: `{"results": [...]}`, one record per page read or refused.
public struct DetectionDocument: Encodable, Sendable {
    /// The records, in input order.
    public var results: [DetectionRecord]

    /// A document of `results`.
    public init(results: [DetectionRecord]) { self.results = results }

    /// The document as `quire detect` prints it (JSONOutput's document style).
    public func json() throws -> Data { try JSONOutput.encode(self, .document) }
}
