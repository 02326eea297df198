import BuiltinPlugins
import CSVFormats
import Foundation
import HealthPipeCore
import SerialIMU
import Yams

/// One fuzzing entry point: takes arbitrary bytes and drives a real parser with them through its
/// real code path. Any crash, hang or unbounded growth is a bug; thrown errors are the expected
/// outcome for bad input. `run` returns how much it produced (rows, records, events), so a test can
/// tell that a valid seed really went through the parser. Used by libFuzzer (`Fuzz/Driver`, `scripts/fuzz.sh`) and by the test
/// suite, which replays every corpus file and every crash found (`FuzzReplayTests`).
public struct FuzzTarget: Sendable {
    public let name: String
    public let summary: String
    public let run: @Sendable (UnsafeRawBufferPointer) -> Int
    /// The registered source components the target drives (empty for parsers below the source level).
    public var components: [String] = []

    /// Every target, by name: the hand-made ones, then one per detectable file source they do not
    /// cover, so a new format (built in or a YAML adapter) is fuzzed without anyone remembering to
    /// add it — and `FuzzReplayTests` fails until it has seed inputs in Fuzz/corpus/<component>.
    public static let all: [FuzzTarget] = handMade + uncoveredSources.map { SourceTarget.make($0, component: $0) }

    /// Detectable file sources that no hand-made target runs.
    static var uncoveredSources: [String] {
        let covered = Set(handMade.flatMap(\.components))
        return FuzzRegistry.shared.all(role: .source).filter { $0.detect != nil && !covered.contains($0.name) }.map(\.name)
    }

    static let handMade: [FuzzTarget] = [
        FuzzTarget(name: "csv-reader", summary: "CSVRowReader: line splitting, libcsv, quote recovery, UTF-16", run: CSVReaderTarget.run),
        FuzzTarget(name: "json-reader", summary: "JSONDocumentReader/JSONDocumentParser: objects cut at every offset, buffer limits",
                   run: JSONReaderTarget.run),
        SourceTarget.make("clarity", component: "dexcom-clarity"),
        SourceTarget.make("libreview", component: "libreview"),
        SourceTarget.make("carelink", component: "medtronic-carelink"),
        SourceTarget.make("mapped", component: "simglucose", alternatives: ["nightscout-entries-csv", "nightscout-exporter-cgm"]),
        SourceTarget.make("apple-xml", component: "apple-health"),
        SourceTarget.make("dexcom-clarity-xlsx", component: "dexcom-clarity-xlsx", onDisk: true),
        SourceTarget.make("export-zip", component: "export-zip", onDisk: true),
        // A YAML adapter whose real export is a workbook: on disk, so the workbook path is taken.
        SourceTarget.make("eversense", component: "eversense", onDisk: true),
        FuzzTarget(name: "pipeline-config", summary: "ConfigDocument + PipelineSpec + PipelineGraph.build on YAML",
                   run: ConfigTargets.pipeline),
        FuzzTarget(name: "adapter-config", summary: "YAML adapter loading (MappedCSVAdapters.component)", run: ConfigTargets.adapter),
        FuzzTarget(name: "serial-text", summary: "TextLineDecoder (IMU CSV/TSV streams)", run: SerialTargets.text),
        FuzzTarget(name: "serial-binary", summary: "BinaryFrameDecoder (float32/int16 frames, sync bytes)", run: SerialTargets.binary),
    ]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// The registry every target builds from (built-in components and the shipped YAML adapters).
enum FuzzRegistry {
    static let shared: ComponentRegistry = {
        let adapters = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("plugins/adapters").path
        return (try? BuiltinPlugins.registry(pluginPaths: [adapters])) ?? (try! BuiltinPlugins.registry(pluginPaths: []))
    }()
}
