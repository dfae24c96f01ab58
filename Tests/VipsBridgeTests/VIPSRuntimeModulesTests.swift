import Foundation
import QuireTestSupport
import Testing
import VipsBridge

/// libvips's loadable modules are opened when a file first needs one, not at start-up: files
/// only a module reads still load, and the loaders Quire blocks stay blocked once the modules
/// have registered them.
@Suite struct VIPSRuntimeModulesTests {
    @Test func aPDFOpensTheModulesAndTheUntrustedLoadersStayBlocked() throws {
        let dir = try TestSupport.temporaryFolder("vips-modules")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pdf = dir + "/page.pdf", bmp = dir + "/picture.bmp"
        try TestSupport.pdf(pages: [(200, 100, (10, 10, 30))]).write(to: URL(fileURLWithPath: pdf))
        try TestSupport.write(TestSupport.bmp, to: bmp)
        // Only the poppler module reads PDF: a loader found means the modules opened.
        #expect(VIPSImage.loaderName(forFile: pdf) == "pdfload")
        #expect(VIPSRuntime.modulesOpen)
        let image = try VIPSImage.load(file: pdf)
        #expect(image.width > 0)
        // BMP is read only by the ImageMagick module, blocked unless untrusted formats are
        // allowed: registered after start-up, it must still be blocked (libvips names the
        // loader it would use, then refuses to run it).
        let refused = #expect(throws: VIPSError.self) { try VIPSImage.load(file: bmp) }
        #expect(refused?.message.contains("blocked") == true, "\(String(describing: refused))")
    }
}
