import Foundation
import HealthPipeCore
import JSONFormats

/// Google Fit's Takeout `All Data/<data source>.json`: one object per data source,
/// `{"Data Source": "derived:com.google.step_count.delta:…", "Data Points": [{"fitValue": [{"value":
/// {"intVal": 1247}}], "startTimeNanos": …, "endTimeNanos": …, "dataTypeName": "…"}, …]}`, its points
/// streamed one at a time (`JSONEnvelope`), each over its nanosecond epoch span (UTC; `--timezone`
/// only places it on the wearer's local day). Every point is stored (`GoogleFitDataTypes.stored`),
/// skipped as a known type not imported, or — a type HealthPipe does not know — quarantined whole
/// with a warning (exit 3). The data source names the records' source (`GoogleFitSourceName`): a Takeout
/// holds several streams of the same steps (Google's estimate, the merged deltas, the Fit app's), and a
/// day's total counts each minute once across them, Google's estimate first (`SourcePriority`).
final class GoogleFitAllDataSource: Source, InputDescribing {
    static let format = "google-fit-all-data"
    /// A file without its `Data Source` member.
    static let fallbackSource = "Google Fit (All Data)"
    static let paths = ["dataTypeName", "startTimeNanos", "endTimeNanos", "fitValue.#.value.intVal", "fitValue.#.value.fpVal"]
    static let table = JSONPathTable(paths)
    static let type = 0, start = 1, end = 2, intVal = 3, fpVal = 4

    let path: String
    let zone: TimeZone?
    let subject: Symbol
    var inputPaths: [String] { [path] }

    init(path: String, zone: TimeZone?, subject: Symbol) {
        self.path = path
        self.zone = zone
        self.subject = subject
    }

    /// Seconds of a nanosecond epoch written as a number or a string of digits (floored: a point that
    /// starts 0.4 s into a second starts in that second).
    static func seconds(nanos b: UnsafeRawBufferPointer) -> Int64? {
        guard !b.isEmpty, b.count <= 19 else { return nil }
        var v: Int64 = 0
        for c in b {
            let d = c &- UInt8(ascii: "0")
            guard d <= 9 else { return nil }
            // 19 digits can pass Int64's end (9879815340000000000): no such time.
            let (times10, o1) = v.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.addingReportingOverflow(Int64(d))
            guard !o1, !o2 else { return nil }
            v = next
        }
        return v / 1_000_000_000
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var offsets = zone.map { ZoneOffsets(zone: $0) }
        let file = Symbol(path), subject = subject
        var source = Symbol(Self.fallbackSource)
        let stored = GoogleFitDataTypes.stored
        // The last type seen and its slot: a file holds one type, so the lookup runs once.
        var lastType: [UInt8] = [], lastSlot = -1
        let run = JSONFileRun(path: path, format: Self.format, context: context, envelope: JSONEnvelope(arrayKey: "Data Points")) { key, raw in
            guard key == "Data Source",
                  let name = try? JSONSerialization.jsonObject(with: Data(raw.utf8), options: .fragmentsAllowed) as? String,
                  !name.isEmpty else { return }
            source = Symbol(GoogleFitSourceName.of(dataSource: name))
        }
        try run.run(table: Self.table, emit: emit, tally: RowTally(types: GoogleFitDataTypes.names), type: { doc, tally in
            doc.withText(Self.type) { bytes -> Int in
                if bytes.elementsEqual(lastType) { return lastSlot }
                let slot = GoogleFitDataTypes.slot(bytes) ?? tally.slot(named: bytes, known: false)
                lastType = Array(bytes)
                lastSlot = slot
                return slot
            } ?? tally.untyped
        }) { doc, out in
            guard doc.has(Self.type) else { throw JSONFileRun.Reject("a point without its dataTypeName") }
            let slot = lastSlot
            guard slot < GoogleFitDataTypes.names.count else {
                throw JSONFileRun.Reject("a data type HealthPipe does not read: \(doc.string(Self.type) ?? "?")", at: doc.path(ofSlot: Self.type))
            }
            guard slot < stored.count else { return .skipped }
            let target = stored[slot].target
            guard let s = doc.bytes(Self.start).flatMap(Self.seconds(nanos:)) else {
                throw JSONFileRun.Reject("startTimeNanos is not nanoseconds since 1970", at: doc.path(ofSlot: Self.start))
            }
            guard let e = doc.bytes(Self.end).flatMap(Self.seconds(nanos:)), e >= s else {
                throw JSONFileRun.Reject("endTimeNanos is not nanoseconds since 1970 at or after startTimeNanos", at: doc.path(ofSlot: Self.end))
            }
            guard let written = doc.number(Self.intVal) ?? doc.number(Self.fpVal) else {
                throw JSONFileRun.Reject("fitValue holds no intVal or fpVal", at: doc.path(ofSlot: Self.fpVal))
            }
            let value = written * target.scale
            if let why = Plausibility.problem(metric: target.metric, value: value, unit: target.unit) {
                throw JSONFileRun.Reject(why, at: doc.path(ofSlot: doc.has(Self.intVal) ? Self.intVal : Self.fpVal))
            }
            out.add(Measurement(subject: subject, metric: target.metric, source: source, start: s, end: e,
                                utcOffset: offsets?.offset(atUTC: s) ?? 0, value: value, unit: target.unit,
                                provenance: Provenance(file: file, line: doc.line)))
            return .stored
        }
    }

    /// A top-level object whose first members are `"Data Source"` and `"Data Points"` (as Google writes them).
    static func detect(_ sniff: FileSniff) -> Int {
        var text = sniff.prefix[...]
        func skipSpace() { while let c = text.first, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 || c == 0xEF || c == 0xBB || c == 0xBF { text = text.dropFirst() } }
        skipSpace()
        guard text.first == UInt8(ascii: "{") else { return 0 }
        text = text.dropFirst()
        skipSpace()
        guard text.starts(with: Array("\"Data Source\"".utf8)) else { return 0 }
        return sniff.prefix.contains(subsequence: Array("\"Data Points\"".utf8)) ? 85 : 0
    }
}

private extension Array where Element == UInt8 {
    func contains(subsequence s: [UInt8]) -> Bool {
        guard s.count <= count else { return false }
        return (0...(count - s.count)).contains { i in self[i..<(i + s.count)].elementsEqual(s) }
    }
}

public let googleFitAllDataComponent = ComponentDescriptor(
    name: GoogleFitAllDataSource.format, role: .source, family: "Wearables",
    summary: """
        Google Fit Takeout `All Data/*.json` ({"Data Source", "Data Points": [{fitValue, startTimeNanos, endTimeNanos, \
        dataTypeName}]}), streamed: steps, heart rate, weight, height, calories (total_energy_burned), distance (km), \
        Move Minutes (active_minutes) and Heart Points over each point's span, the data source naming the source \
        ("Google Fit: estimated_steps (…)"); the \
        other known types are counted as not imported, an unknown type is quarantined with a warning. See docs/formats.md.
        """,
    options: [
        OptionDoc("path", "path", required: true, "the All Data JSON file (`-` for standard input)"),
        OptionDoc("timezone", "IANA zone or ±HH:MM", default: "UTC",
                  "the wearer's zone: the local day of each point (the file's times are UTC epochs)"),
        OptionDoc("subject", "text", default: "the run's --subject", "whose data this is"),
    ],
    produces: [.measurements],
    detect: { GoogleFitAllDataSource.detect($0) },
    signature: ["\"data source\"", "\"data points\"", "\"fitvalue\"", "\"starttimenanos\"", "\"datatypename\""],
    build: { b in
        GoogleFitAllDataSource(path: b.path(try b.required("path")), zone: try b.zone(b.value("timezone")),
                               subject: Symbol(try b.value("subject") ?? b.settings.subject))
    })
