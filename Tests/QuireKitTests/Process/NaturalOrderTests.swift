import Testing
@testable import QuireKit

@Suite struct NaturalOrderTests {
    @Test func numbersCompareByValue() {
        let names = [
            "page10.jpg", "page2.jpg", "page1.jpg", "Page3.jpg", "page02.jpg", "page.jpg", "a100b2", "a100b10", "a99"
        ]
        #expect(
            names.sorted(by: NaturalOrder.areInIncreasingOrder) == [
                "a99", "a100b2", "a100b10", "page.jpg", "page1.jpg", "page02.jpg", "page2.jpg", "Page3.jpg",
                "page10.jpg"
            ])
    }

    @Test func orderIsTotalAndHugeNumbersDoNotOverflow() {
        #expect(NaturalOrder.compare("x99999999999999999999999", "x100000000000000000000000") == -1)
        #expect(NaturalOrder.compare("a", "A") != 0)
        #expect(NaturalOrder.compare("a", "a") == 0)
        #expect(NaturalOrder.compare("A", "a") == -NaturalOrder.compare("a", "A"))
    }

    @Test func pathsCompareFolderByFolder() {
        let paths = ["scan10/a.jpg", "scan2/b.jpg", "scan2/a10.jpg", "scan2/a9.jpg", "b.jpg"]
        #expect(
            paths.sorted(by: NaturalOrder.comparePaths) == [
                "b.jpg", "scan2/a9.jpg", "scan2/a10.jpg", "scan2/b.jpg", "scan10/a.jpg"
            ])
    }
}
