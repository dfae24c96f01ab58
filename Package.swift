// swift-tools-version:6.0
import PackageDescription

/// `make test-fast` sets QUIRE_PURE_ONLY=1 (with its own scratch path): the package is then the
/// pure modules, the Foundation-only test support and their tests, so it builds without libvips,
/// Tesseract or argument-parser in a minute or two.
let pureOnly = Context.environment["QUIRE_PURE_ONLY"] == "1"

/// `make test` sets QUIRE_OPTIMIZE_TESTS=1 (with its own scratch path, .build-test): the modules
/// whose pixel and geometry loops the tests run are compiled with -O inside the debug build, whose
/// -Onone `stride` and generic calls made those loops the bulk of the test run (figures in
/// docs/benchmarks.md, "Test suite time"). Off by default: a plain `swift build` stays a debugger-
/// friendly -Onone build, and the manifest carries no unsafe flags for packages that depend on Quire.
let optimizeForTests = Context.environment["QUIRE_OPTIMIZE_TESTS"] == "1"

/// The settings of the modules `optimizeForTests` compiles with -O (-O keeps overflow and bounds
/// checks, so a test traps where the debug build would; `-enable-testing` stays on).
let testOptimized: [SwiftSetting] = optimizeForTests ? [.unsafeFlags(["-O"])] : []

/// CTesseractShim's `GOMP_` definitions (omp_inline.c) in the dynamic symbol table, where
/// libtesseract's versioned references bind to them: the linker exports them only when asked. On
/// the `quire` executable and the test target that checks them only, so no library product
/// carries unsafe flags (an app linking QuireKit keeps libgomp's regions, the same words).
let exportOpenMPEntryPoints: [LinkerSetting] = [
    .unsafeFlags(
        ["GOMP_parallel", "GOMP_parallel_sections", "GOMP_sections_next", "GOMP_sections_end_nowait"].flatMap {
            ["-Xlinker", "--export-dynamic-symbol=\($0)"]
        })
]

/// Where an installed `quire` finds the libtesseract `make install` puts beside it
/// (PREFIX/lib/quire: Quire's own build of Debian's source, Scripts/tesseract_fast.sh and
/// docs/install.md). A build folder's binaries find the one the Makefile links into their folder
/// through the `$ORIGIN` entry SwiftPM always writes. Neither folder holding it, the loader goes
/// on to Debian's: a plain `swift build` links and runs as before.
let bundledTesseractPath: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "-rpath", "-Xlinker", "$ORIGIN/../lib/quire"])]

/// The pure modules and their tests (also the whole package under QUIRE_PURE_ONLY=1).
let pureTargets: [Target] = [
    .target(name: "QuireGeometry", swiftSettings: testOptimized),
    .target(name: "QuireLayout", dependencies: ["QuireGeometry"], swiftSettings: testOptimized),
    // Page analysis on the detection copy's pixels (quads, skew, spreads, scanner edges): pure,
    // so its tests run under `make test-fast`; QuireImaging makes the copies and calls it.
    .target(name: "QuirePageAnalysis", dependencies: ["QuireGeometry"], swiftSettings: testOptimized),
    // Test helpers shared by every test target (Tests/QuireTestSupport: repository root,
    // fixtures, temporary folders, seeded generators and mutators, an awaited subprocess
    // runner). Foundation only, so the pure modules' tests never link libvips; no product. -O in
    // `make test`'s build like the modules under test: its generated pages are pixel loops.
    .target(name: "QuireTestSupport", path: "Tests/QuireTestSupport", swiftSettings: testOptimized),
    .testTarget(name: "QuireGeometryTests", dependencies: ["QuireGeometry", "QuireTestSupport"]),
    .testTarget(
        name: "QuireLayoutTests", dependencies: ["QuireLayout", "QuireGeometry", "QuireTestSupport"],
        exclude: ["Goldens"]),
    .testTarget(
        name: "QuirePageAnalysisTests",
        dependencies: ["QuirePageAnalysis", "QuireGeometry", "QuireTestSupport"])
]

/// Quire's module graph (see docs/architecture.md): C stays behind VipsBridge (libvips) and
/// TesseractBridge (Tesseract); QuireGeometry, QuireLayout and QuirePageAnalysis are pure Swift and
/// never link libvips.
let package = Package(
    name: "Quire",
    platforms: [.macOS(.v13)],
    products: pureOnly
        ? [
            .library(name: "QuireGeometry", targets: ["QuireGeometry"]),
            .library(name: "QuireLayout", targets: ["QuireLayout"])
        ]
        : [
            .library(name: "QuireGeometry", targets: ["QuireGeometry"]),
            .library(name: "QuireLayout", targets: ["QuireLayout"]),
            .library(name: "QuireImaging", targets: ["QuireImaging"]),
            .library(name: "QuireKit", targets: ["QuireKit"]),
            .executable(name: "quire", targets: ["quire"])
        ],
    dependencies: pureOnly
        ? []
        : [
            // 1.8: `@Option(defaultAsFlag:)` for `quire process --pdf [FILE]`.
            .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
            // `make docs`: the DocC catalogs of QuireLayout, QuireGeometry and QuireKit.
            .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")
        ],
    targets: pureTargets
        + (pureOnly
            ? []
            : [
                .systemLibrary(
                    name: "CVips",
                    path: "Sources/CVips",
                    pkgConfig: "vips",
                    providers: [.apt(["libvips-dev"])]
                ),
                .target(
                    name: "CVipsShim", dependencies: ["CVips"], path: "Sources/CVipsShim",
                    linkerSettings: [
                        .linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("tiff"), .linkedLibrary("z"),
                        .linkedLibrary("gmodule-2.0")
                    ]),
                .target(name: "VipsBridge", dependencies: ["CVips", "CVipsShim"], swiftSettings: testOptimized),
                // Tesseract's C API for OCR and orientation detection; only TesseractBridge sees it.
                .systemLibrary(
                    name: "CTesseract",
                    path: "Sources/CTesseract",
                    pkgConfig: "tesseract",
                    providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]
                ),
                // The hOCR and text of a page in one pass over its words (C++: Tesseract's page
                // iterators are not in its C API); only TesseractBridge sees it.
                .target(name: "CTesseractShim", dependencies: ["CTesseract"], path: "Sources/CTesseractShim"),
                // The one lock helper (`LockedValue`, over `Synchronization.Mutex`) every module
                // that shares state between threads uses; no C, no Foundation.
                .target(name: "QuireSync"),
                .target(name: "TesseractBridge", dependencies: ["CTesseract", "CTesseractShim", "QuireSync"]),
                .target(
                    name: "QuireImaging",
                    dependencies: ["VipsBridge", "TesseractBridge", "QuireGeometry", "QuirePageAnalysis", "QuireSync"],
                    swiftSettings: testOptimized),
                .target(
                    name: "QuireKit", dependencies: ["QuireImaging", "QuireLayout", "QuireGeometry", "QuireSync"],
                    swiftSettings: testOptimized),
                .executableTarget(
                    name: "quire",
                    dependencies: [
                        "QuireKit",
                        .product(name: "ArgumentParser", package: "swift-argument-parser")
                    ],
                    linkerSettings: exportOpenMPEntryPoints + bundledTesseractPath
                ),
                // The tools below live in Tools/ and are built by the make targets that run them; none is
                // a product. `make bench-layout`: the layout engine at 10^3 ... 10^6 items.
                .executableTarget(
                    name: "quire-bench-layout", dependencies: ["QuireLayout"], path: "Tools/bench-layout"),
                // `make accuracy-deskew`: mean/worst skew error and ms/page over ../shared/data.
                .executableTarget(
                    name: "quire-deskew-score", dependencies: ["QuireImaging", "VipsBridge"], path: "Tools/deskew-score"
                ),
                // The border-detection accuracy harness (`make accuracy`): scores Quire and the OpenCV peer.
                .executableTarget(
                    name: "QuireAccuracy", dependencies: ["QuireImaging"], path: "Tools/accuracy/Sources"),
                // The benchmark floor (decode + encode only, no correction); see Tools/bench/README.md.
                .executableTarget(
                    name: "quire-floor",
                    dependencies: [
                        "VipsBridge",
                        .product(name: "ArgumentParser", package: "swift-argument-parser")
                    ],
                    path: "Tools/floor"
                ),
                // The helpers that need images (synthesised pictures, pixel differences, the
                // resampler's exact oracle) over VipsBridge; -O in `make test`'s build, as above.
                .target(
                    name: "QuireImageTestSupport", dependencies: ["QuireTestSupport", "VipsBridge"],
                    path: "Tests/QuireImageTestSupport", swiftSettings: testOptimized),
                .testTarget(name: "QuireSyncTests", dependencies: ["QuireSync"]),
                .testTarget(name: "VipsBridgeTests", dependencies: ["VipsBridge", "QuireImageTestSupport"]),
                .testTarget(
                    name: "TesseractBridgeTests",
                    dependencies: ["TesseractBridge", "VipsBridge", "QuireImageTestSupport", "QuireTestSupport"],
                    linkerSettings: exportOpenMPEntryPoints),
                .testTarget(
                    name: "QuireImagingTests",
                    dependencies: [
                        "QuireImaging", "QuirePageAnalysis", "VipsBridge", "TesseractBridge",
                        "QuireImageTestSupport"
                    ]),
                .testTarget(
                    name: "QuireKitTests",
                    dependencies: ["QuireKit", "QuireImaging", "VipsBridge", "QuireImageTestSupport"]),
                .testTarget(name: "QuireCLITests", dependencies: ["quire", "QuireKit", "QuireTestSupport"]),
                .testTarget(
                    name: "QuireFloorTests", dependencies: ["quire-floor", "VipsBridge", "QuireImageTestSupport"]),
                // The shared helpers' own tests (generator, mutator, subprocess runner, pixel differences).
                .testTarget(
                    name: "QuireTestSupportTests",
                    dependencies: ["QuireTestSupport", "QuireImageTestSupport", "VipsBridge"])
            ]),
    swiftLanguageModes: [.v6],
    // Tesseract's C++ headers (CTesseractShim) need C++17.
    cxxLanguageStandard: .cxx17
)
