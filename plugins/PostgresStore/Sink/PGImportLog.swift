import HealthPipeCore

/// The `imports` table in PostgreSQL, as in SQLite: one row per input path, marked running when a
/// run starts (committed at once, so a killed run shows as 'running'), finished from the run report;
/// its new rows are counted by the transactions that write them (`PGBatchJob`).
final class PGImportLog {
    private let db: PGConnection
    private let startedAt: Int64
    /// Import id by provenance file symbol id; -1 for "no file".
    private var ids: [Int64?] = []
    private var touched: [(id: Int64, path: String)] = []

    init(db: PGConnection, startedAt: Int64) {
        self.db = db
        self.startedAt = startedAt
    }

    /// Marks `path` running in this run; its id.
    @discardableResult
    func start(path: String) throws -> Int64 {
        let rows = try db.query("""
            INSERT INTO imports (path, first_started_at, started_at, status, runs) VALUES ($1, $2, $2, 'running', 1)
            ON CONFLICT (path) DO UPDATE SET started_at = excluded.started_at, finished_at = NULL, status = 'running',
                runs = imports.runs + 1, rows_read = 0, measurements = 0, events = 0, rejected = 0, new_rows = 0
            RETURNING id
            """, [path, String(startedAt)])
        let id = rows.int(0, 0)
        touched.append((id, path))
        return id
    }

    /// The id of a record's file (nil for records without one), started on first sight.
    @inline(__always)
    func id(of file: Symbol) throws -> Int64? {
        let i = Int(file.id)
        if i < ids.count, let id = ids[i] { return id < 0 ? nil : id }
        let id: Int64 = file.isEmpty ? -1 : try touched.first { $0.path == file.text }?.id ?? start(path: file.text)
        if i >= ids.count { ids.append(contentsOf: repeatElement(nil, count: i + 1 - ids.count)) }
        ids[i] = id
        return id < 0 ? nil : id
    }

    /// What the run report knows about each file, and every touched file's final status.
    func finish(inputs: [InputFileInfo], status: String, finishedAt: Int64) throws {
        var done = Set<Int64>()
        for info in inputs {
            let id = try touched.first { $0.path == info.path }?.id ?? start(path: info.path)
            try db.query("""
                UPDATE imports SET format = $2, size = $3, hash = $4, rows_read = $5, measurements = $6, events = $7,
                    rejected = $8, finished_at = $9, status = $10 WHERE id = $1
                """, [String(id), info.format, String(info.size), info.hash, String(info.rowsRead), String(info.measurements),
                      String(info.events), String(info.rejected), String(finishedAt), status])
            done.insert(id)
        }
        for t in touched where !done.contains(t.id) {
            try db.query("UPDATE imports SET finished_at = $2, status = $3 WHERE id = $1", [String(t.id), String(finishedAt), status])
            done.insert(t.id)
        }
    }
}

/// Row ids of `devices` by device symbol, each looked up (or inserted) once per run.
final class PGDevices {
    private let db: PGConnection
    private var ids: [Int64?] = []

    init(db: PGConnection) { self.db = db }

    @inline(__always)
    func id(of device: Symbol) throws -> Int64? {
        if device.isEmpty { return nil }
        let i = Int(device.id)
        if i < ids.count, let id = ids[i] { return id }
        let rows = try db.query("""
            INSERT INTO devices (attributes) VALUES ($1) ON CONFLICT (attributes) DO UPDATE SET attributes = excluded.attributes
            RETURNING id
            """, [device.text])
        let id = rows.int(0, 0)
        if i >= ids.count { ids.append(contentsOf: repeatElement(nil, count: i + 1 - ids.count)) }
        ids[i] = id
        return id
    }
}
