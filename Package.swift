// swift-tools-version:6.1
import PackageDescription

// Only plugins link the C libraries; HealthPipeCore knows no file format and links none.
let package = Package(
    name: "HealthPipe",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "healthpipe", targets: ["healthpipe"]),
        .library(name: "HealthPipeCore", targets: ["HealthPipeCore"]),
        .library(name: "HealthPipeAnalytics", targets: ["HealthPipeAnalytics"]),
        .library(name: "BuiltinPlugins", targets: ["BuiltinPlugins"]),
        .library(name: "HealthPipeStore", targets: ["HealthPipeStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        // `healthpipe serve` (docs/serve.md): the HTTP server.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The HTTP parts Hummingbird's channel carries (`HTTPLayerAnswers` completes its own 400s).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.24.0"),
    ],
    targets: [
        // System libraries (Debian: libcsv-dev, libxml2-dev, libsqlite3-dev).
        .systemLibrary(name: "CLibCSV", path: "Sources/CLibCSV", providers: [.apt(["libcsv-dev"])]),
        .systemLibrary(name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // PostgreSQL client library (Debian: libpq-dev), linked only by the PostgresStore plugin.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // Small C targets, one purpose each: signal flags for a clean stop, and serial ports/ptys (POSIX termios).
        .target(name: "CStopSignals", path: "Sources/CStopSignals"),
        .target(name: "CSerialPort", path: "Sources/CSerialPort", cSettings: [.define("_GNU_SOURCE", .when(platforms: [.linux]))]),
        // zlib (Debian: zlib1g-dev) for ZipReading, the one reader of zip archives (exports, workbooks, Apple's export.zip).
        .systemLibrary(name: "CZlibInflate", path: "Sources/CZlibInflate", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "ZipReading", dependencies: ["CZlibInflate"], path: "Sources/ZipReading"),
        // libcrypto (OpenSSL; Debian: libssl-dev, which libpq-dev depends on) for the server's hashes, MACs and random bytes.
        .systemLibrary(name: "CLibCrypto", path: "Sources/CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        .target(name: "HealthPipeCore", dependencies: ["Yams", "CStopSignals"],
                path: "Sources/HealthPipeCore"),
        .target(name: "HealthPipeAnalytics", dependencies: ["HealthPipeCore"],
                path: "Sources/HealthPipeAnalytics"),

        // Format adapters and sinks: one target per family.
        .target(name: "CSVFormats",
                dependencies: ["HealthPipeCore", "CLibCSV", "Yams",
                               // Excel workbooks (Clarity XLSX) are zips of XML.
                               "CLibXML2", "ZipReading"],
                path: "plugins/CSVFormats"),
        .target(name: "SQLiteStore", dependencies: ["HealthPipeCore", "CSQLite"],
                path: "plugins/SQLiteStore"),
        .target(name: "JSONFormats", dependencies: ["HealthPipeCore"],
                path: "plugins/JSONFormats"),
        // PostgreSQL sink and source for shared stores and cohorts (libpq, docs/scale-out.md).
        .target(name: "PostgresStore", dependencies: ["HealthPipeCore", "CLibPQ"], path: "plugins/PostgresStore"),
        .target(name: "AppleHealth",
                dependencies: ["HealthPipeCore", "CLibXML2", "ZipReading"],
                path: "plugins/AppleHealth"),
        .target(name: "SerialIMU", dependencies: ["HealthPipeCore", "CSerialPort"],
                path: "plugins/SerialIMU"),
        // Chart data, SVG and the HTML page: no SQLite here (the CLI composes store queries with these views).
        .target(name: "Charts", dependencies: ["HealthPipeCore", "HealthPipeAnalytics"], path: "plugins/Charts"),
        // Hand-made entries: health reports, insulin, meals, exercise, episodes (docs/reports.md).
        .target(name: "HealthLog", dependencies: ["HealthPipeCore"], path: "plugins/HealthLog"),
        // Fitness wearables' own exports (Fitbit, …): JSON families streamed with JSONFormats' reader.
        .target(name: "Wearables", dependencies: ["HealthPipeCore", "JSONFormats", "CSVFormats"], path: "plugins/Wearables"),
        .target(name: "BuiltinPlugins",
                dependencies: ["HealthPipeCore", "HealthPipeAnalytics", "CSVFormats", "SQLiteStore", "JSONFormats",
                               "AppleHealth", "SerialIMU", "Charts", "HealthLog", "PostgresStore", "Wearables"],
                path: "plugins/BuiltinPlugins"),

        // What every store does (HealthStore), SQLite and PostgreSQL alike: the derived-data rule and the views' reads.
        .target(name: "HealthPipeStore", dependencies: ["HealthPipeCore", "HealthPipeAnalytics", "SQLiteStore", "PostgresStore", "Charts", "Yams"],
                path: "Sources/HealthPipeStore"),
        .target(name: "HealthPipeCLI",
                dependencies: ["BuiltinPlugins", "HealthPipeStore", "CSVFormats", "HealthPipeAnalytics", "Charts", "HealthLog", "PostgresStore", "Yams",
                               .product(name: "ArgumentParser", package: "swift-argument-parser")],
                path: "Sources/HealthPipeCLI"),
        // `healthpipe serve`: the app and a Nightscout-compatible API over a store (docs/serve.md).
        .target(name: "HealthPipeServe",
                dependencies: ["HealthPipeCLI", "HealthPipeStore", "Charts", "HealthLog", "JSONFormats", "HealthPipeCore", "HealthPipeAnalytics", "CLibCrypto",
                               .product(name: "ArgumentParser", package: "swift-argument-parser"),
                               .product(name: "Hummingbird", package: "hummingbird"),
                               .product(name: "HTTPTypes", package: "swift-http-types"),
                               .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "NIOHTTPTypes", package: "swift-nio-extras")],
                path: "Sources/HealthPipeServe"),
        .executableTarget(name: "healthpipe", dependencies: ["HealthPipeCLI", "HealthPipeServe", .product(name: "ArgumentParser", package: "swift-argument-parser")], path: "Sources/healthpipe"),

        // Fuzzing entry points (docs/reliability.md): replayed by FuzzReplayTests, run by scripts/fuzz.sh.
        .target(name: "FuzzTargets", dependencies: ["BuiltinPlugins", "CSVFormats", "JSONFormats", "SerialIMU", "HealthPipeCore", "Yams"],
                path: "Fuzz/Targets"),

        // What the test targets share (a stage-context builder): swift-nio's NIOTestUtils is the model.
        .target(name: "HealthPipeTestSupport", dependencies: ["HealthPipeCore", "ZipReading", "SQLiteStore"], path: "Tests/HealthPipeTestSupport"),
        .testTarget(name: "HealthPipeCoreTests", dependencies: ["HealthPipeCore", "HealthPipeTestSupport"]),
        // ZIPFoundation writes the zips the tests read (it is not used for reading: see ZipArchive).
        .testTarget(name: "ZipReadingTests", dependencies: ["ZipReading", "HealthPipeTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "HealthPipeAnalyticsTests", dependencies: ["HealthPipeTestSupport", "HealthPipeAnalytics"]),
        .testTarget(name: "CSVFormatsTests", dependencies: ["HealthPipeTestSupport", "CSVFormats", "BuiltinPlugins"]),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["HealthPipeTestSupport", "SQLiteStore", "CSQLite"]),
        .testTarget(name: "AppleHealthTests",
                    dependencies: ["HealthPipeTestSupport", "AppleHealth", "BuiltinPlugins", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "SerialIMUTests",
                    dependencies: ["HealthPipeTestSupport", "SerialIMU", "HealthPipeAnalytics", "SQLiteStore", "CSerialPort", "BuiltinPlugins", "Charts"]),
        .testTarget(name: "ChartsTests", dependencies: ["HealthPipeTestSupport", "Charts", "HealthPipeAnalytics"]),
        .testTarget(name: "JSONFormatsTests", dependencies: ["JSONFormats", "HealthPipeTestSupport"]),
        .testTarget(name: "HealthLogTests", dependencies: ["HealthLog", "HealthPipeCore"]),
        .testTarget(name: "WearablesTests", dependencies: ["Wearables", "BuiltinPlugins", "HealthPipeTestSupport"]),
        .testTarget(name: "PostgresStoreTests", dependencies: ["PostgresStore", "HealthPipeCore"]),
        .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzTargets", "BuiltinPlugins", "HealthPipeTestSupport"]),
        // Every detectable source reads its fixtures alike by path, stdin, pipe and byte by byte (SourceVerifier).
        .testTarget(name: "SourceContractTests", dependencies: ["BuiltinPlugins", "HealthPipeTestSupport"], exclude: ["Fixtures"]),
        // `healthpipe serve` as a process, through real HTTP clients (docs/serve.md).
        // The app's browser walkthrough (Browser/app_walkthrough.py) is Python, run by AppBrowserTests.
        .testTarget(name: "ServeTests", dependencies: ["HealthPipeServe", "healthpipe", "HealthPipeTestSupport"], exclude: ["Browser", "python"]),
        .testTarget(name: "EndToEndTests", dependencies: ["HealthPipeCLI", "BuiltinPlugins", "HealthPipeStore", "HealthPipeTestSupport",
                                                   "CSQLite", "healthpipe",
                                                   "CSerialPort", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
    ]
)

// The libFuzzer driver links only with -sanitize=fuzzer (it calls LLVMFuzzerRunDriver), so it exists
// only when scripts/fuzz.sh asks for it.
if Context.environment["HEALTHPIPE_FUZZ"] != nil {
    package.targets.append(.executableTarget(name: "healthpipe-fuzz", dependencies: ["FuzzTargets"], path: "Fuzz/Driver",
                                             swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
}
