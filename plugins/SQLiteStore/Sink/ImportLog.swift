import HealthPipeCore

/// The `imports` table: one row per input path, marked running when a run starts, counted while
/// rows are written, finished from the run report. Maps each provenance file symbol to its id.
final class ImportLog {
    struct Entry {
        let id: Int64
        let path: String
        /// Rows inserted or changed since the last commit; folded into new_rows at commit.
        var pendingNewRows: Int64 = 0
        var finished = false
    }

    private(set) var entries: [Entry] = []
    /// Indexed by Symbol.id: index into `entries`, `unknown` until looked up, `none` for no file.
    private var slots: [Int32] = []
    private static let unknown: Int32 = -1
    static let none: Int32 = -2

    private let startedAt: Int64
    private let begin: Statement
    private let addNewRows: Statement
    private let finishFull: Statement
    private let finishStatus: Statement

    init(db: SQLiteConnection, startedAt: Int64) throws {
        self.startedAt = startedAt
        // A re-run resets the per-run counters and counts the run; first_started_at is kept.
        begin = try db.prepare("""
            INSERT INTO imports (path, first_started_at, started_at, status, runs) VALUES (?1, ?2, ?2, 'running', 1)
            ON CONFLICT (path) DO UPDATE SET started_at = excluded.started_at, finished_at = NULL, status = 'running',
                runs = imports.runs + 1, rows_read = 0, measurements = 0, events = 0, rejected = 0, new_rows = 0
            RETURNING id
            """, persistent: true)
        addNewRows = try db.prepare("UPDATE imports SET new_rows = new_rows + ?2 WHERE id = ?1", persistent: true)
        finishFull = try db.prepare("""
            UPDATE imports SET format = ?2, size = ?3, hash = ?4, rows_read = ?5, measurements = ?6, events = ?7,
                rejected = ?8, finished_at = ?9, status = ?10 WHERE id = ?1
            """, persistent: true)
        finishStatus = try db.prepare("UPDATE imports SET finished_at = ?2, status = ?3 WHERE id = ?1", persistent: true)
    }

    /// Marks `path` as running in this run (once per run) and returns its slot.
    @discardableResult
    func start(path: String) throws -> Int32 {
        let symbol = Symbol(path)
        if let slot = cachedSlot(symbol), slot >= 0 { return slot }
        try begin.bindText(1, path)
        try begin.bindInt(2, startedAt)
        defer { begin.reset() }
        guard try begin.step() else {
            throw SQLiteError(code: 1, message: "no id returned for import '\(path)'", sql: begin.sql)
        }
        let id = begin.int(0)
        while try begin.step() {}
        entries.append(Entry(id: id, path: path))
        let slot = Int32(entries.count - 1)
        setSlot(symbol, slot)
        return slot
    }

    /// The slot of a record's provenance file, creating its imports row on first sight (a source
    /// may read files the run was not told about, e.g. members of a zip). Call inside a transaction.
    @inline(__always)
    func slot(for file: Symbol) throws -> Int32 {
        if let slot = cachedSlot(file) { return slot }
        if file.isEmpty {
            setSlot(file, Self.none)
            return Self.none
        }
        return try start(path: file.text)
    }

    @inline(__always)
    func id(ofSlot slot: Int32) -> Int64 { entries[Int(slot)].id }

    /// Binds the id of the import that read `provenance`'s file (NULL for records from no file).
    func bindImport(of provenance: Provenance, to s: Statement, at index: Int32) throws {
        let slot = try slot(for: provenance.file)
        if slot >= 0 { try s.bindInt(index, id(ofSlot: slot)) } else { try s.bindNull(index) }
    }

    /// Binds a row's import_id and source_line (at `index` and the next): the import of `slot` and
    /// the line, or NULL twice for records from no file (slot < 0).
    @inline(__always)
    func bindOrigin(slot: Int32, line: Int64, to s: Statement, at index: Int32) throws {
        if slot >= 0 {
            try s.bindInt(index, id(ofSlot: slot))
            try s.bindInt(index + 1, line)
        } else {
            try s.bindNull(index)
            try s.bindNull(index + 1)
        }
    }

    @inline(__always)
    func countNewRows(_ n: Int, slot: Int32) {
        if slot >= 0 { entries[Int(slot)].pendingNewRows += Int64(n) }
    }

    /// Folds the pending counts into new_rows; runs inside the transaction that commits the rows.
    func flushNewRows() throws {
        for i in entries.indices where entries[i].pendingNewRows != 0 {
            try addNewRows.bindInt(1, entries[i].id)
            try addNewRows.bindInt(2, entries[i].pendingNewRows)
            try addNewRows.run()
            entries[i].pendingNewRows = 0
        }
    }

    /// Drops counts of rows that were rolled back.
    func discardPending() {
        for i in entries.indices { entries[i].pendingNewRows = 0 }
    }

    /// Writes what the run report knows about each file, and the final status of every file
    /// this run touched.
    func finish(inputs: [InputFileInfo], status: String, finishedAt: Int64) throws {
        for info in inputs {
            let slot = try start(path: info.path)
            let stmt = finishFull
            try stmt.bindInt(1, entries[Int(slot)].id)
            try stmt.bindText(2, info.format)
            try stmt.bindInt(3, info.size)
            try stmt.bindText(4, info.hash)
            try stmt.bindInt(5, info.rowsRead)
            try stmt.bindInt(6, info.measurements)
            try stmt.bindInt(7, info.events)
            try stmt.bindInt(8, info.rejected)
            try stmt.bindInt(9, finishedAt)
            try stmt.bindText(10, status)
            try stmt.run()
            entries[Int(slot)].finished = true
        }
        for i in entries.indices where !entries[i].finished {
            try finishStatus.bindInt(1, entries[i].id)
            try finishStatus.bindInt(2, finishedAt)
            try finishStatus.bindText(3, status)
            try finishStatus.run()
            entries[i].finished = true
        }
    }

    @inline(__always)
    private func cachedSlot(_ symbol: Symbol) -> Int32? {
        let i = Int(symbol.id)
        guard i < slots.count else { return nil }
        let slot = slots[i]
        return slot == Self.unknown ? nil : slot
    }

    private func setSlot(_ symbol: Symbol, _ slot: Int32) {
        let i = Int(symbol.id)
        if i >= slots.count {
            slots.append(contentsOf: repeatElement(Self.unknown, count: max(i + 1, slots.count * 2, 64) - slots.count))
        }
        slots[i] = slot
    }
}
