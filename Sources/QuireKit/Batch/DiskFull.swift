import Foundation
import QuireImaging

/// Tells a full disk (ENOSPC, or EDQUOT when the user's quota is spent) apart from other
/// write failures, whichever writer met it: libvips's savers (`out of disk space?`), Quire's
/// own JPEG writer (`No space left on device`) or Foundation's file calls.
///
/// A full disk is not a fault of the page being written: every later page would fail the
/// same way, so the batch stops starting pages and reports it once for OUT.
enum DiskFull {
    /// Whether a message names a full disk (`LoaderMessage.diskFull` holds the wordings).
    static func matches(_ message: String) -> Bool { LoaderMessage.diskFull.isSaid(by: message) }

    /// Whether an error of a page or of Quire's own bookkeeping is a full disk.
    static func matches(_ error: any Error) -> Bool {
        if let error = error as? ImagingError { return matches(error.reason) }
        if let error = error as? ProcessError { return matches(error.reason) }
        let ns = error as NSError
        if ns.domain == NSCocoaErrorDomain && ns.code == CocoaError.fileWriteOutOfSpace.rawValue { return true }
        if ns.domain == NSPOSIXErrorDomain && (ns.code == Int(ENOSPC) || ns.code == Int(EDQUOT)) { return true }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying !== ns, matches(underlying) {
            return true
        }
        return matches(String(describing: error))
    }
}
