import Foundation
import HealthPipeCore

/// Writes records as NDJSON, one object per line with a `type` field, through the hand-written
/// `JSONWriter` (JSONEncoder is far too slow for millions of records). Output goes to a temporary
/// file beside the target and is renamed over it at the end (`AtomicFile`): a reader never sees half
/// a run, and only a regular file is ever replaced — a directory, device or unwritable path is refused
/// before the run reads anything.
public final class NDJSONSink: Sink, OutputChecking {
    let path: String
    let include: RecordKinds
    private var file: AtomicFile?
    private var toStandardOutput = false
    private var encoder = NDJSONRecordEncoder()

    public init(path: String, include: RecordKinds = .all) {
        self.path = path
        self.include = include
    }

    public func checkOutputs() throws {
        if path != "-" { _ = try OutputPath.check(path, what: "NDJSON output") }
    }

    public var fileRoles: [FileRole] { [FileRole(.output, path, what: "NDJSON output")] }

    public func open(run: RunInfo, context: StageContext) throws {
        if path == "-" { toStandardOutput = true; return }
        file = try AtomicFile(path: path, what: "NDJSON output")
    }

    public func write(_ batch: RecordBatch, context: StageContext) throws {
        if include.contains(.measurements) { for m in batch.measurements { encoder.encode(m); try flushIfFull() } }
        if include.contains(.events) { for e in batch.events { encoder.encode(e); try flushIfFull() } }
        if include.contains(.dailySummaries) { for d in batch.dailySummaries { encoder.encode(d); try flushIfFull() } }
        if include.contains(.metricSets) { for m in batch.metricSets { encoder.encode(m); try flushIfFull() } }
        if include.contains(.forecasts) { for f in batch.forecasts { encoder.encode(f); try flushIfFull() } }
        if include.contains(.alerts) { for a in batch.alerts { encoder.encode(a); try flushIfFull() } }
        if include.contains(.profiles) { for p in batch.profiles { encoder.encode(p); try flushIfFull() } }
    }

    public func close(outcome: RunOutcome, report: RunReport, context: StageContext) throws {
        defer { file = nil }  // released uncommitted, the temporary file goes
        // Only a completed run replaces the previous output: an interrupted or failed one leaves it whole.
        guard outcome == .completed || toStandardOutput else { return }
        try flush()
        try file?.commit()
    }

    private func flushIfFull() throws { if encoder.writer.bytes.count > 1 << 20 { try flush() } }

    private func flush() throws {
        guard !encoder.writer.bytes.isEmpty else { return }
        if toStandardOutput {
            if let code = encoder.writer.bytes.withUnsafeBytes({ AtomicFile.writeAll(1, $0) }) {
                throw OutputError(path: "standard output", reason: "cannot write: \(OSError.reason(code))")
            }
        } else {
            try file?.write(encoder.writer.bytes)
        }
        encoder.writer.reset()
    }
}

public let ndjsonSinkComponent = ComponentDescriptor(
    name: "ndjson", role: .sink, family: "JSONFormats",
    summary: """
        Newline-delimited JSON: one object per record with a "type" of measurement, event, daily, metrics, forecast, alert or profile. \
        Times are UTC epoch seconds with utc_offset; values in canonical units. Written atomically (temp file + rename).
        """,
    options: [
        OptionDoc("path", "path", required: true, "output file (`-` for standard output)"),
        OptionDoc("include", "list of measurements | events | daily | metrics | forecasts | alerts | profiles", default: "all",
                  "which record kinds to write"),
        OptionDoc("partition_by", "subject", default: "none",
                  "write Hive-style partitions under the folder `path`: <table>/subject=<id>/part-<source>.ndjson, every record "
                  + "with an id, a manifest line per output in _manifests/; a re-run replaces its parts (docs/scale-out.md)"),
        OptionDoc("source_id", "text", default: "the inputs' base names",
                  "with partition_by: name every part of this run after this text instead of its input files"),
    ],
    accepts: .all, produces: [],
    build: { b in
        let path: String = try b.required("path")
        let kinds = try NDJSONSink.kinds(b.value("include"), builder: b)
        let sourceID: String? = try b.value("source_id")
        guard let by = try b.value("partition_by", as: String.self) else {
            if sourceID != nil { throw b.error("source_id names partitions: give partition_by: subject too", option: "source_id") }
            return NDJSONSink(path: b.path(path), include: kinds)
        }
        guard by == "subject" else { throw b.error("partition_by: '\(by)' is not supported (subject)", option: "partition_by") }
        guard path != "-" else { throw b.error("a partitioned output is a folder, not standard output", option: "path") }
        return PartitionedNDJSONSink(folder: b.path(path), include: kinds, sourceID: sourceID)
    })

extension NDJSONSink {
    /// The record kinds an `include` list names (all when absent).
    static func kinds(_ include: [String]?, builder b: ComponentBuilder) throws -> RecordKinds {
        guard let include else { return .all }
        var kinds: RecordKinds = []
        for name in include {
            switch name {
            case "measurements": kinds.insert(.measurements)
            case "events": kinds.insert(.events)
            case "daily", "daily_summaries": kinds.insert(.dailySummaries)
            case "metrics", "metric_sets": kinds.insert(.metricSets)
            case "forecasts": kinds.insert(.forecasts)
            case "alerts": kinds.insert(.alerts)
            case "profiles": kinds.insert(.profiles)
            default:
                throw b.error("unknown record kind '\(name)' (measurements, events, daily, metrics, forecasts, alerts, profiles)", option: "include")
            }
        }
        return kinds
    }
}

/// Everything JSONFormats registers.
public enum JSONFormatsPlugin {
    public static var components: [ComponentDescriptor] {
        [ndjsonSinkComponent, nightscoutComponent, tidepoolComponent, fhirSinkComponent, healthReportsJSONComponent,
         ndjsonSourceComponent, stdinSourceComponent, autoSourceComponent, stdoutSinkComponent]
    }
}
