import Testing
import VipsBridge
@testable import QuireImaging

/// Codes are the contract of layout.json's errors; a failure whose libvips message another
/// thread took is tried once more, and nothing else is.
@Suite struct ImagingErrorTests {
    @Test func codesAreStableAndDistinct() {
        let codes = ImagingError.Kind.allCases.map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(ImagingError.Kind.missing.code == "not-found" && ImagingError.Kind.timedOut.code == "timeout")
        #expect(codes.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "-" } })
    }

    @Test func aFailureWithoutItsReasonIsTriedOnceMore() throws {
        var calls = 0
        let value = try ImagingError.retryingLostReason { () throws -> Int in
            calls += 1
            if calls == 1 {
                throw ImagingError(.decodeFailed, path: "a.jpg", reason: "cannot decode (\(VIPSError.unknownMessage))")
            }
            return 7
        }
        #expect(value == 7 && calls == 2)
    }

    @Test func otherFailuresAreNotRetried() {
        var calls = 0
        #expect(throws: ImagingError.self) {
            try ImagingError.retryingLostReason { () throws -> Int in
                calls += 1
                throw ImagingError(.truncated, path: "a.jpg", reason: "truncated or corrupt image data (Premature end)")
            }
        }
        #expect(calls == 1)
        // A reason that stays lost is reported after the second try, not looped on.
        calls = 0
        #expect(throws: ImagingError.self) {
            try ImagingError.retryingLostReason { () throws -> Int in
                calls += 1
                throw ImagingError(.decodeFailed, path: "a.jpg", reason: "cannot decode (\(VIPSError.unknownMessage))")
            }
        }
        #expect(calls == 2)
    }
}
