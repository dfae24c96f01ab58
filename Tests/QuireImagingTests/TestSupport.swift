import QuireImageTestSupport
import QuireTestSupport

/// The helpers moved to the shared test-support targets (Tests/QuireTestSupport: paths, fixtures,
/// generators, subprocesses; Tests/QuireImageTestSupport: images). This name forwards to them so
/// that files written before the move keep compiling; new files import those modules.
typealias TestSupport = QuireTestSupport.TestSupport
