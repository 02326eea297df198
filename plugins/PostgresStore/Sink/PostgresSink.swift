import Foundation
import HealthPipeCore

/// Writes measurements, events, profiles, derived rows, workout routes, ECGs and motion sessions into
/// the HealthPipe tables of a PostgreSQL database — the SQLite sink's tables and natural keys
/// (docs/scale-out.md) — for stores that many
/// machines write at once (a cohort). Re-importing adds nothing; a killed run loses at most one
/// transaction; derived rows follow the store (`PGImportSession`, `PGRewriteSession`).
public final class PostgresSink: Sink {
    public static let defaultBatchRows = 100_000

    public let url: PostgresURL
    public let batchRows: Int
    public let replaceDerived: Bool
    /// Set by the command that builds the pipeline, as for the SQLite sink: the derivation steps upstream
    /// that follow the store's settings and see exactly what it stores.
    public var trustedSteps: Set<String> = []
    /// In `replace_derived` mode: the pending days to bring up to date (nil: everything) and the settings to store.
    public var pending: PostgresPendingDays?
    public var settingsToStore: [PostgresDerivationSettings.Row]?
    /// After the run: the subjects it wrote readings or events of.
    public private(set) var writtenSubjects: [String] = []
    private var session: PGImportSession?
    private var rewrite: PGRewriteSession?

    public init(url: PostgresURL, batchRows: Int = PostgresSink.defaultBatchRows, replaceDerived: Bool = false) {
        self.url = url
        self.batchRows = max(1, batchRows)
        self.replaceDerived = replaceDerived
    }

    public func open(run: RunInfo, context: StageContext) throws {
        if replaceDerived {
            rewrite = try PGRewriteSession(url: url, pending: pending, settings: settingsToStore)
        } else {
            session = try PGImportSession(url: url, batchRows: batchRows, run: run, trustedSteps: trustedSteps)
        }
    }

    public func write(_ batch: RecordBatch, context: StageContext) throws {
        noteUnstored(batch)
        if let rewrite { return try rewrite.write(batch) }
        try session?.write(batch)
    }

    /// Records of kinds this store does not keep (yet), counted for one warning at the end.
    private var unstored: [String: Int] = [:]

    private func noteUnstored(_ batch: RecordBatch) {
        for (n, name) in [(batch.reports.count, "health reports"), (batch.entries.count, "manual entries"),
                          (batch.reportDays.count, "daily report summaries")] where n > 0 {
            unstored[name, default: 0] += n
        }
    }

    public func close(outcome: RunOutcome, report: RunReport, context: StageContext) throws {
        if !unstored.isEmpty {
            context.warn("not stored in PostgreSQL (it keeps no health log; docs/scale-out.md): "
                         + unstored.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        }
        if let rewrite {
            defer { self.rewrite = nil }
            return try rewrite.finish(outcome: outcome)
        }
        guard let session else { return }
        defer { self.session = nil }
        writtenSubjects = try session.finish(outcome: outcome, report: report, finishedAt: Int64(Date().timeIntervalSince1970))
    }
}

/// The `postgres` sink as registered in BuiltinPlugins.
public let postgresSinkComponent = ComponentDescriptor(
    name: "postgres", role: .sink, family: "PostgresStore",
    summary: """
        Writes measurements, events, subject profiles, daily summaries and metric sets, workout routes, ECGs and motion \
        sessions to PostgreSQL: the SQLite sink's tables and natural keys, COPY into a staging table then INSERT … ON CONFLICT, \
        one transaction per batch, its own migrations. Re-runnable; passwords never shown. See docs/scale-out.md.
        """,
    options: [
        OptionDoc("url", "postgresql:// URL or key=value string", default: "the PG* variables",
                  "the database; without it libpq reads PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE (and ~/.pgpass)"),
        OptionDoc("batch_rows", "integer", default: String(PostgresSink.defaultBatchRows),
                  "rows per transaction; a killed run loses at most the open one"),
        OptionDoc("replace_derived", "boolean", default: "false",
                  "re-aggregation: in ONE transaction replace the derived rows, update bands, store the settings"),
    ],
    accepts: [.measurements, .events, .profiles, .dailySummaries, .metricSets, .forecasts, .alerts, .motionSessions, .routes,
              .electrocardiograms],
    produces: [],
    build: { b in
        let rows = try b.value("batch_rows") ?? PostgresSink.defaultBatchRows
        guard rows >= 1 else { throw b.error("batch_rows must be at least 1 (got \(rows))", option: "batch_rows") }
        return PostgresSink(url: PostgresURL(try b.value("url")), batchRows: rows, replaceDerived: try b.value("replace_derived") ?? false)
    })
