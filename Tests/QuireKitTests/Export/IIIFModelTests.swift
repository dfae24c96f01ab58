import Foundation
import Testing
@testable import QuireKit

/// The IIIF tile grid (what info.json advertises) and the Presentation 3 manifest model.
@Suite struct IIIFModelTests {
    @Test func scaleFactorsReachAOneTileLevel() {
        #expect(IIIFTileGrid(width: 1300, height: 900, tileSize: 512).scaleFactors == [1, 2, 4])
        #expect(IIIFTileGrid(width: 512, height: 512, tileSize: 512).scaleFactors == [1])
        #expect(IIIFTileGrid(width: 513, height: 10, tileSize: 512).scaleFactors == [1, 2])
        #expect(IIIFTileGrid(width: 4097, height: 4095, tileSize: 512).scaleFactors == [1, 2, 4, 8, 16])
    }

    @Test func edgeTilesFollowTheImageAPIRule() {
        // 1301 x 901 in 512 tiles: at s = 2 the right column covers x 1024..1301 (277 px),
        // served at ceil(277 / 2) = 139 px; at s = 4 one tile covers all: full/326,226.
        let grid = IIIFTileGrid(width: 1301, height: 901, tileSize: 512)
        let s1 = grid.tiles(scaleFactor: 1)
        #expect(s1.count == 3 * 2)
        #expect(
            s1.last
                == .init(scaleFactor: 1, x: 1024, y: 512, regionWidth: 277, regionHeight: 389, width: 277, height: 389))
        let s2 = grid.tiles(scaleFactor: 2)
        #expect(s2.count == 2)
        #expect(
            s2[1] == .init(scaleFactor: 2, x: 1024, y: 0, regionWidth: 277, regionHeight: 901, width: 139, height: 451))
        #expect(s2[1].path(imageWidth: 1301, imageHeight: 901) == "1024,0,277,901/139,451/0/default.jpg")
        let s4 = grid.tiles(scaleFactor: 4)
        #expect(s4.count == 1)
        #expect(s4[0].path(imageWidth: 1301, imageHeight: 901) == "full/326,226/0/default.jpg")
        #expect(s4[0].dzsavePath == "0,0,1301,901/326,226/0/default.jpg")
        #expect(grid.allTiles.count == 9)
        #expect(grid.fullSizes.map { [$0.width, $0.height] } == [[326, 226]])
    }

    @Test func tilesCoverTheImageExactlyAtEveryScale() {
        for (w, h) in [(1, 1), (511, 512), (512, 513), (2049, 7), (3000, 200), (4097, 4095)] {
            let grid = IIIFTileGrid(width: w, height: h, tileSize: 512)
            for s in grid.scaleFactors {
                let tiles = grid.tiles(scaleFactor: s)
                #expect(tiles.reduce(0) { $0 + $1.regionWidth * $1.regionHeight } == w * h, "\(w)x\(h) s=\(s)")
                #expect(tiles.allSatisfy { $0.width <= 512 && $0.height <= 512 && $0.width >= 1 && $0.height >= 1 })
            }
        }
    }

    @Test func aSmallImageIsOneFullMaxTile() {
        let grid = IIIFTileGrid(width: 300, height: 450, tileSize: 512)
        #expect(grid.allTiles.map { $0.path(imageWidth: 300, imageHeight: 450) } == ["full/max/0/default.jpg"])
        let info = IIIFImageInfo(id: "https://x.org/iiif/0001", grid: grid)
        #expect(info.sizes == [.init(width: 300, height: 450)])
        #expect(info.tiles == [.init(width: 512, height: 512, scaleFactors: [1])])
    }

    @Test func infoJSONIsALevel0Service() throws {
        let grid = IIIFTileGrid(width: 1882, height: 2021, tileSize: 512)
        let json =
            try JSONSerialization.jsonObject(with: IIIFImageInfo(id: "https://x.org/iiif/0001", grid: grid).encoded())
            as? [String: Any]
        #expect(json?["@context"] as? String == "http://iiif.io/api/image/3/context.json")
        #expect(json?["type"] as? String == "ImageService3")
        #expect(json?["profile"] as? String == "level0")
        #expect(json?["width"] as? Int == 1882 && json?["height"] as? Int == 2021)
        let sizes = json?["sizes"] as? [[String: Int]]
        #expect(sizes == [["width": 471, "height": 506], ["width": 1882, "height": 2021]])
    }

    @Test func manifestHasOneCanvasPerPageInOrder() throws {
        let pages = [
            IIIFManifest.PageEntry(
                id: "0001", label: "scan_004.jpg", width: 1239, height: 1753, thumbnailWidth: 310, thumbnailHeight: 439),
            IIIFManifest.PageEntry(
                id: "0002", label: "book.pdf, page 2", width: 300, height: 450, thumbnailWidth: 300,
                thumbnailHeight: 450)
        ]
        let manifest = IIIFManifest(
            baseURL: "https://x.org/b/iiif", label: "My scans", pages: pages,
            behavior: .paged, viewingDirection: .rightToLeft)
        let json = try #require(try JSONSerialization.jsonObject(with: manifest.encoded()) as? [String: Any])
        #expect(json["@context"] as? String == "http://iiif.io/api/presentation/3/context.json")
        #expect(json["id"] as? String == "https://x.org/b/iiif/manifest.json")
        #expect(json["type"] as? String == "Manifest")
        #expect((json["label"] as? [String: [String]])?["none"] == ["My scans"])
        #expect(json["behavior"] as? [String] == ["paged"])
        #expect(json["viewingDirection"] as? String == "right-to-left")
        let canvases = try #require(json["items"] as? [[String: Any]])
        #expect(
            canvases.map { $0["id"] as? String } == [
                "https://x.org/b/iiif/canvas/0001", "https://x.org/b/iiif/canvas/0002"
            ])
        #expect(
            canvases.map { ($0["label"] as? [String: [String]])?["none"]?.first } == [
                "scan_004.jpg", "book.pdf, page 2"
            ])
        #expect(canvases[0]["width"] as? Int == 1239 && canvases[0]["height"] as? Int == 1753)
        let page = try #require((canvases[0]["items"] as? [[String: Any]])?.first)
        let annotation = try #require((page["items"] as? [[String: Any]])?.first)
        #expect(annotation["motivation"] as? String == "painting")
        #expect(annotation["target"] as? String == "https://x.org/b/iiif/canvas/0001")
        let body = try #require(annotation["body"] as? [String: Any])
        #expect(body["id"] as? String == "https://x.org/b/iiif/0001/full/max/0/default.jpg")
        #expect(body["width"] as? Int == 1239)
        let service = try #require((body["service"] as? [[String: Any]])?.first)
        #expect(service["id"] as? String == "https://x.org/b/iiif/0001")
        #expect(service["type"] as? String == "ImageService3" && service["profile"] as? String == "level0")
        let thumb = try #require((canvases[0]["thumbnail"] as? [[String: Any]])?.first)
        #expect(thumb["id"] as? String == "https://x.org/b/iiif/0001/full/310,439/0/default.jpg")
        // A page no larger than its thumbnail uses full/max as its thumbnail.
        let smallThumb = try #require((canvases[1]["thumbnail"] as? [[String: Any]])?.first)
        #expect(smallThumb["id"] as? String == "https://x.org/b/iiif/0002/full/max/0/default.jpg")
        // The manifest's own thumbnail is the first page's.
        #expect(((json["thumbnail"] as? [[String: Any]])?.first?["id"] as? String) == thumb["id"] as? String)
    }

    @Test func baseURLsAreCheckedAndTrimmed() {
        #expect(IIIFExportOptions(baseURL: "https://x.org/iiif/").normalizedBaseURL == "https://x.org/iiif")
        #expect(IIIFExportOptions(baseURL: "http://127.0.0.1:8000").normalizedBaseURL == "http://127.0.0.1:8000")
        for bad in ["x.org/iiif", "ftp://x.org", "file:///tmp/x", "https://", "https://x.org/?a=1"] {
            #expect(IIIFExportOptions(baseURL: bad).normalizedBaseURL == nil, "\(bad)")
        }
    }
}
