import HealthPipeCore

/// The `sqlite` sink as registered in BuiltinPlugins.
public let sqliteSinkComponent = ComponentDescriptor(
    name: "sqlite",
    role: .sink,
    family: "SQLiteStore",
    summary: """
        Writes measurements, events, daily summaries and metric sets, health reports and manual entries (by id) to a \
        SQLite database (WAL, upserts on natural keys; re-importing adds nothing). Schema: docs/schema.md.
        """,
    options: [
        OptionDoc("path", "path", required: true, "Database file to create or update; parent folders are created. Relative paths "
                  + "resolve against the config's folder."),
        OptionDoc("batch_rows", "integer", default: String(SQLiteSink.defaultBatchRows),
                  "Rows per transaction. A killed run loses at most the open transaction; a re-run completes it."),
        OptionDoc("replace_derived", "boolean", default: "false",
                  "Re-aggregation: in ONE transaction, empty the derived tables (daily_summaries, daily_bands, forecasts, "
                  + "alerts), write the incoming derived records and update only the band of stored readings; events are "
                  + "not written. Commits only when the run completes."),
        OptionDoc("restore_deleted", "boolean", default: "false",
                  "Rows deleted by hand (a Nightscout client's DELETE, remembered in deleted_rows) that this run brings again "
                  + "are stored again and no longer remembered as deleted; by default they stay deleted."),
    ],
    accepts: [.measurements, .events, .profiles, .dailySummaries, .metricSets, .forecasts, .alerts, .motionSessions, .routes,
              .electrocardiograms, .reports, .entries, .reportDays],
    produces: [],
    build: { builder in
        let o = try builder.options(SQLiteSink.Options.self)
        if let rows = o.batchRows, rows < 1 {
            throw builder.error("batch_rows must be at least 1 (got \(rows))", option: "batch_rows")
        }
        return SQLiteSink(path: builder.path(o.path), batchRows: o.batchRows ?? SQLiteSink.defaultBatchRows,
                          replaceDerived: o.replaceDerived ?? false, restoreDeleted: o.restoreDeleted ?? false)
    })
