import HealthPipeCore

/// The `sqlite` sink as registered in BuiltinPlugins.
public let sqliteSinkComponent = ComponentDescriptor(
    name: "sqlite",
    role: .sink,
    family: "SQLiteStore",
    summary: "Writes measurements, events and daily summaries to a SQLite database (WAL, upserts on natural keys; "
        + "re-importing adds nothing). Schema: docs/schema.md.",
    options: [
        OptionDoc("path", "path", "Database file to create or update; parent folders are created. Relative paths "
                  + "resolve against the config's folder."),
        OptionDoc("batch_rows", "integer", default: String(SQLiteSink.defaultBatchRows),
                  "Rows per transaction. A killed run loses at most the open transaction; a re-run completes it."),
    ],
    accepts: [.measurements, .events, .dailySummaries, .motionSessions],
    produces: [],
    build: { builder in
        let o = try builder.options(SQLiteSink.Options.self)
        if let rows = o.batchRows, rows < 1 {
            throw builder.error("batch_rows must be at least 1 (got \(rows))", option: "batch_rows")
        }
        return SQLiteSink(path: builder.path(o.path), batchRows: o.batchRows ?? SQLiteSink.defaultBatchRows)
    })
