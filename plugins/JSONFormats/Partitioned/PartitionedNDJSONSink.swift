import HealthPipeCore

/// The `ndjson` sink with `partition_by: subject`: Hive-style partitions that engines read as tables
/// (`<folder>/<table>/subject=<id>/part-<source>.ndjson`, `PartitionPath`), every record with its
/// deterministic `id` (`RecordID`), and one manifest line per output file
/// (`<folder>/_manifests/part-<run>.ndjson`: `{"input","output","rows","sha256"}`).
///
/// A part is named after the source it holds — readings after the input file they came from,
/// derived records (daily, metrics, forecasts, alerts) after the run's set of inputs — by base name,
/// never by folder, machine or time. Every file is written beside its target and renamed over it
/// only when the run completes, the manifest last: a retried task replaces its parts instead of
/// appending, and a failed or interrupted one leaves the previous parts as they were.
final class PartitionedNDJSONSink: Sink, OutputChecking {
    let folder: String
    let include: RecordKinds
    /// One identity for everything this run writes, instead of one per input file.
    let sourceID: String?

    private final class Output {
        let relative: String
        let file: AtomicFile
        var encoder = NDJSONRecordEncoder()
        var digest = SHA256()
        var rows = 0
        var inputs: [String] = []
        init(relative: String, file: AtomicFile) {
            self.relative = relative
            self.file = file
            encoder.withIDs = true
            encoder.writer.reset()
        }
    }

    private struct Key: Hashable {
        var table: Int
        var subject: Symbol
        /// The input file of a reading; empty for derived records (the run's inputs).
        var origin: Symbol
    }

    private var runInputs: [String] = []
    private var runIdentity = ""
    private var byKey: [Key: Output] = [:]
    private var byPath: [String: Output] = [:]
    static let flushBytes = 256 << 10

    init(folder: String, include: RecordKinds, sourceID: String?) {
        self.folder = folder
        self.include = include
        self.sourceID = sourceID
    }

    func checkOutputs() throws {
        _ = try OutputPath.check(folder + "/" + PartitionPath.manifests + "/manifest.ndjson", what: "partitioned output's manifest")
    }

    func open(run: RunInfo, context: StageContext) throws {
        runInputs = run.inputPaths
        runIdentity = sourceID ?? Set(runInputs.map(PartitionPath.identity(ofInput:))).sorted().joined(separator: "\n")
    }

    func write(_ batch: RecordBatch, context: StageContext) throws {
        for (table, entry) in PartitionPath.tables.enumerated() where include.contains(entry.kind) {
            switch entry.kind {
            case .measurements:
                for m in batch.measurements { try add(table, m.subject, m.provenance.file) { $0.encode(m) } }
            case .events:
                for e in batch.events { try add(table, e.subject, e.provenance.file) { $0.encode(e) } }
            case .dailySummaries:
                for d in batch.dailySummaries { try add(table, d.subject, .empty) { $0.encode(d) } }
            case .metricSets:
                for m in batch.metricSets { try add(table, m.subject, .empty) { $0.encode(m) } }
            case .forecasts:
                for f in batch.forecasts { try add(table, f.subject, .empty) { $0.encode(f) } }
            default:
                for a in batch.alerts { try add(table, a.subject, .empty) { $0.encode(a) } }
            }
        }
    }

    @inline(__always)
    private func add(_ table: Int, _ subject: Symbol, _ origin: Symbol, _ encode: (inout NDJSONRecordEncoder) -> Void) throws {
        let key = Key(table: table, subject: subject, origin: sourceID == nil ? origin : .empty)
        let out = try byKey[key] ?? output(for: key)
        encode(&out.encoder)
        out.rows += 1
        if out.encoder.writer.bytes.count >= Self.flushBytes { try flush(out) }
    }

    /// The output of a key; keys whose paths coincide (two inputs with one base name) share it.
    private func output(for key: Key) throws -> Output {
        let input = key.origin.isEmpty ? nil : key.origin.text
        let identity = input.map(PartitionPath.identity(ofInput:)) ?? runIdentity
        let relative = "\(PartitionPath.tables[key.table].name)/subject=\(PartitionPath.escape(key.subject.text))/"
            + PartitionPath.part(for: identity)
        let out: Output
        if let existing = byPath[relative] {
            out = existing
        } else {
            out = Output(relative: relative, file: try AtomicFile(path: folder + "/" + relative, what: "partitioned NDJSON output"))
            byPath[relative] = out
        }
        for i in input.map({ [$0] }) ?? runInputs where !out.inputs.contains(i) { out.inputs.append(i) }
        byKey[key] = out
        return out
    }

    private func flush(_ out: Output) throws {
        guard !out.encoder.writer.bytes.isEmpty else { return }
        try out.encoder.writer.bytes.withUnsafeBytes { bytes in
            out.digest.update(bytes)
            try out.file.write(bytes)
        }
        out.encoder.writer.reset()
    }

    func close(outcome: RunOutcome, report: RunReport, context: StageContext) throws {
        defer {
            byKey = [:]
            byPath = [:]
        }
        // Not completed: the temporary files go (AtomicFile), the previous parts stay.
        guard outcome == .completed else { return }
        var manifest = JSONWriter(capacity: 4096)
        for out in byPath.values.sorted(by: { $0.relative < $1.relative }) {
            try flush(out)
            try out.file.commit()
            manifest.beginObject()
            manifest.key("input"); manifest.string(out.inputs.joined(separator: ", "))
            manifest.key("output"); manifest.string(out.relative)
            manifest.key("rows"); manifest.int(out.rows)
            manifest.key("sha256"); manifest.string(out.digest.finalize())
            manifest.endObject()
            manifest.newline()
        }
        try AtomicFile.write(manifest.bytes, to: folder + "/" + PartitionPath.manifests + "/" + PartitionPath.part(for: runIdentity),
                             what: "partitioned output's manifest")
    }
}
