import Foundation
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

    /// The records of one part that come from one input (one source's, in its order); a part fed by
    /// several inputs is put together from them in the inputs' name order when the run completes, so
    /// its bytes do not depend on how the sources' threads interleaved.
    private final class Piece {
        let origin: String
        let file: AtomicFile
        var encoder = NDJSONRecordEncoder()
        var digest = SHA256()
        var rows = 0
        init(origin: String, file: AtomicFile) {
            self.origin = origin
            self.file = file
            encoder.withIDs = true
            encoder.writer.reset()
        }
    }

    private final class Output {
        let relative: String
        var pieces: [String: Piece] = [:]
        var inputs: [String] = []
        init(relative: String) { self.relative = relative }
    }

    private struct Key: Hashable {
        var table: Int
        var subject: Symbol
        /// The input file of a reading; empty for derived records (the run's inputs).
        var origin: Symbol
    }

    private var runInputs: [String] = []
    private var runIdentity = ""
    private var byKey: [Key: Piece] = [:]
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

    var fileRoles: [FileRole] { [FileRole(.output, folder, what: "partitioned output folder")] }

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
            case .alerts:
                for a in batch.alerts { try add(table, a.subject, .empty) { $0.encode(a) } }
            default:
                for p in batch.profiles { try add(table, p.subject, p.provenance.file) { $0.encode(p) } }
            }
        }
    }

    @inline(__always)
    private func add(_ table: Int, _ subject: Symbol, _ origin: Symbol, _ encode: (inout NDJSONRecordEncoder) -> Void) throws {
        let key = Key(table: table, subject: subject, origin: origin)
        let piece = try byKey[key] ?? piece(for: key)
        encode(&piece.encoder)
        piece.rows += 1
        if piece.encoder.writer.bytes.count >= Self.flushBytes { try flush(piece) }
    }

    /// The piece of a key, in the output its path names (two inputs with one base name, or every input
    /// under `source_id`, share an output).
    private func piece(for key: Key) throws -> Piece {
        let input = key.origin.isEmpty ? nil : key.origin.text
        let identity = sourceID ?? input.map(PartitionPath.identity(ofInput:)) ?? runIdentity
        let relative = "\(PartitionPath.tables[key.table].name)/subject=\(PartitionPath.escape(key.subject.text))/"
            + PartitionPath.part(for: identity)
        let out = byPath[relative] ?? Output(relative: relative)
        byPath[relative] = out
        for i in input.map({ [$0] }) ?? runInputs where !out.inputs.contains(i) { out.inputs.append(i) }
        let origin = input ?? ""
        let piece = try out.pieces[origin] ?? Piece(origin: origin, file: AtomicFile(path: folder + "/" + relative,
                                                                                     what: "partitioned NDJSON output"))
        out.pieces[origin] = piece
        byKey[key] = piece
        return piece
    }

    private func flush(_ piece: Piece) throws {
        guard !piece.encoder.writer.bytes.isEmpty else { return }
        try piece.encoder.writer.bytes.withUnsafeBytes { bytes in
            piece.digest.update(bytes)
            try piece.file.write(bytes)
        }
        piece.encoder.writer.reset()
    }

    /// Renames the output's one piece into place, or writes its pieces one after the other into a new
    /// file renamed into place; returns its rows and SHA-256.
    private func commit(_ out: Output) throws -> (rows: Int, sha256: String) {
        let pieces = out.pieces.values.sorted { $0.origin < $1.origin }
        for p in pieces { try flush(p) }
        if pieces.count == 1 {
            try pieces[0].file.commit()
            return (pieces[0].rows, pieces[0].digest.finalize())
        }
        let whole = try AtomicFile(path: folder + "/" + out.relative, what: "partitioned NDJSON output")
        var digest = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        for p in pieces {
            let fd = Foundation.open(p.file.temporaryPath, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw OutputError(path: p.file.temporaryPath, reason: "cannot read back: \(OSError.reason(errno))") }
            defer { Foundation.close(fd) }
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if n < 0, errno == EINTR { continue }
                guard n >= 0 else { throw OutputError(path: p.file.temporaryPath, reason: "cannot read back: \(OSError.reason(errno))") }
                if n == 0 { break }
                try buffer.withUnsafeBytes { b in
                    let chunk = UnsafeRawBufferPointer(rebasing: b[..<n])
                    digest.update(chunk)
                    try whole.write(chunk)
                }
            }
        }
        try whole.commit()
        return (pieces.reduce(0) { $0 + $1.rows }, digest.finalize())
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
            let (rows, sha256) = try commit(out)
            manifest.beginObject()
            manifest.key("input"); manifest.string(out.inputs.sorted().joined(separator: ", "))
            manifest.key("output"); manifest.string(out.relative)
            manifest.key("rows"); manifest.int(rows)
            manifest.key("sha256"); manifest.string(sha256)
            manifest.endObject()
            manifest.newline()
        }
        try AtomicFile.write(manifest.bytes, to: folder + "/" + PartitionPath.manifests + "/" + PartitionPath.part(for: runIdentity),
                             what: "partitioned output's manifest")
    }
}
