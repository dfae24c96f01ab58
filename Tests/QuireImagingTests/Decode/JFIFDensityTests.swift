import Testing
@testable import QuireImaging

/// The JFIF density Tesseract's image reader would see in a written page.
@Suite struct JFIFDensityTests {
    private func header(units: UInt8, y: Int) -> [UInt8] {
        [
            0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, units,
            UInt8(y >> 8), UInt8(y & 0xFF), UInt8(y >> 8), UInt8(y & 0xFF), 0x00, 0x00
        ]
    }

    @Test func dotsPerInchAndPerCentimetreAreRead() {
        #expect(JFIFDensity.parse(header(units: 1, y: 200)) == 200)
        #expect(JFIFDensity.parse(header(units: 2, y: 100)) == 254)
    }

    @Test func anAspectRatioOrNoJFIFGivesNone() {
        #expect(JFIFDensity.parse(header(units: 0, y: 1)) == nil)
        #expect(JFIFDensity.parse(header(units: 1, y: 0)) == nil)
        #expect(JFIFDensity.parse(header(units: 1, y: 60000)) == nil)
        #expect(JFIFDensity.parse([0xFF, 0xD8, 0xFF, 0xE1] + [UInt8](repeating: 0, count: 16)) == nil)
        #expect(JFIFDensity.parse([0x89, 0x50]) == nil)
    }
}
