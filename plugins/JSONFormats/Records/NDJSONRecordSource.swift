import HealthPipeCore

/// Reads HealthPipe's own NDJSON records back (what the `ndjson` and `stdout` sinks write): a file,
/// a partitioned output's part, or standard input (`-`). Streamed with flat memory by the JSON
/// document reader; a line that is not a record is rejected with its line and reason.
final class NDJSONRecordSource: Source, InputDescribing {
    static let format = "ndjson-records"
    let path: String
    var inputPaths: [String] { [path] }

    init(path: String) { self.path = path }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var mapper = NDJSONRecordMapper(file: Symbol(path))
        try JSONFileRun(path: path, format: Self.format, context: context)
            .run(table: NDJSONRecordFields.table, emit: emit, tally: RowTally(types: NDJSONRecordFields.types), type: Self.slot) { doc, out in
                try mapper.map(doc, into: &out)
                return .stored
            }
    }

    /// A line's slot in the run report's per-type counts (docs/reliability.md, "Every row accounted
    /// for"): its `type`; one HealthPipe does not write counts as unknown under its own text (it is
    /// quarantined), a line without a type under no type.
    static func slot(_ doc: JSONDocument, _ tally: inout RowTally) -> Int {
        doc.withText(NDJSONRecordFields.type) { b in
            if b.isEmpty { return tally.untyped }
            if let i = NDJSONRecordFields.types.firstIndex(where: { $0.utf8.elementsEqual(b) }) { return i }
            return tally.slot(named: b, known: false)
        } ?? tally.untyped
    }

    /// A file whose first object has a `type` HealthPipe writes and a `subject`: its own records.
    static func detect(_ sniff: FileSniff) -> Int {
        guard let doc = JSONSniff.firstObject(sniff, table: NDJSONRecordFields.table),
              let type = doc.string(NDJSONRecordFields.type), NDJSONRecordFields.types.contains(type),
              doc.has(NDJSONRecordFields.subject) else { return 0 }
        return 95
    }
}

public let ndjsonSourceComponent = ComponentDescriptor(
    name: "ndjson-source", role: .source, family: "JSONFormats",
    summary: """
        HealthPipe's own NDJSON records read back (what the ndjson and stdout sinks write: measurement, event, daily, \
        metrics, forecast, alert, profile), from a file or standard input (`-`). Detected by content.
        """,
    options: [OptionDoc("path", "path", required: true, "the NDJSON file (`-` for standard input)")],
    produces: [.measurements, .events, .dailySummaries, .metricSets, .forecasts, .alerts, .profiles],
    detect: NDJSONRecordSource.detect,
    // Words an export of this kind shows near its start: "unknown format" names the nearest format by them.
    signature: ["\"type\"", "\"subject\"", "\"metric\"", "\"source\"", "\"start\"", "\"utc_offset\""],
    build: { b in NDJSONRecordSource(path: b.path(try b.required("path"))) })
