import HealthPipeCore
import HealthPipeTestSupport
import SQLiteStore

/// Drives an `SQLiteSink` the way the engine does: open, write batches, close with a report.
struct SinkHarness {
    let directory: TempDirectory
    let dbPath: String
    var startedAt: Int64 = 1_700_000_000

    init(_ directory: TempDirectory, name: String = "out/health.sqlite") {
        self.directory = directory
        self.dbPath = directory.path(name)
    }

    func context() -> StageContext {
        StageContext.forTesting("sqlite", name: "db", quarantine: QuarantineWriter(path: directory.path("quarantine.ndjson")))
    }

    /// Opens a sink and writes the batches without closing it: the transaction stays open.
    func openAndWrite(_ batches: [RecordBatch], inputs: [String], batchRows: Int = 1_000_000,
                      replaceDerived: Bool = false) throws -> (SQLiteSink, StageContext) {
        let sink = SQLiteSink(path: dbPath, batchRows: batchRows, replaceDerived: replaceDerived)
        let ctx = context()
        try sink.open(run: RunInfo(id: "test", startedAt: startedAt, inputPaths: inputs), context: ctx)
        for b in batches { try sink.write(b, context: ctx) }
        return (sink, ctx)
    }

    /// A whole run: open, write, close with `report`.
    func run(_ batches: [RecordBatch], inputs: [InputFileInfo], outcome: RunOutcome = .completed,
             batchRows: Int = 1_000_000) throws {
        let (sink, ctx) = try openAndWrite(batches, inputs: inputs.map(\.path), batchRows: batchRows)
        try close(sink, ctx, inputs: inputs, outcome: outcome)
    }

    /// A re-aggregation (`replace_derived`): derived records replace the stored ones in one transaction.
    func reaggregate(_ batches: [RecordBatch]) throws {
        let (sink, ctx) = try openAndWrite(batches, inputs: [], replaceDerived: true)
        try close(sink, ctx, inputs: [], outcome: .completed)
    }

    private func close(_ sink: SQLiteSink, _ ctx: StageContext, inputs: [InputFileInfo], outcome: RunOutcome) throws {
        var report = RunReport()
        report.inputs = inputs
        report.outcome = outcome
        try sink.close(outcome: outcome, report: report, context: ctx)
    }
}

/// Small record factories with fixed symbols.
enum Fixture {
    static let subject = Symbol("alice")
    static let glucose = Symbol("glucose")
    static let dexcom = Symbol("Dexcom G6")
    static let mgdl = Symbol("mg/dL")

    static func readings(file: String, count: Int, start: Int64 = 1_700_000_000, value: (Int) -> Double = { 100 + Double($0 % 50) })
        -> [Measurement] {
        let fileSymbol = Symbol(file)
        return (0..<count).map { i in
            Measurement(subject: subject, metric: glucose, source: dexcom, start: start + Int64(i) * 300,
                        utcOffset: 3600, value: value(i), unit: mgdl,
                        provenance: Provenance(file: fileSymbol, line: Int64(i + 2)))
        }
    }

    static func input(_ path: String, rows: Int64, measurements: Int64 = 0, events: Int64 = 0) -> InputFileInfo {
        InputFileInfo(path: path, format: "dexcom-clarity", size: rows * 80, hash: "00ff00ff00ff00ff", rowsRead: rows,
                      measurements: measurements, events: events, rejected: 0)
    }
}
