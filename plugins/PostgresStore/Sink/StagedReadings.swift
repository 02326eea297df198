import HealthPipeCore

/// Measurements or events waiting for the next transaction.
///
/// A key's first row in the transaction goes to `buffer`; a row whose key was already staged (two
/// exports of one reading in one run) goes to `later` with its generation — 1 the second time, 2 the
/// third… Generations are moved one after the other, so a key staged twice is written twice in the
/// order it came: the later write wins and each write that changes the row counts, exactly as the
/// SQLite sink writes row by row.
///
/// When most staged rows lie on days that had nothing stored before this run (a subject new to the
/// store, or new days of a stored one: `DayFreshness.isUnstored`), the rows are COPYed straight into
/// the table — no staging, no ON CONFLICT, which cost PostgreSQL twice the time of the copy itself —
/// inside a savepoint; should a key be there after all (a stored reading sent again, the same reading
/// in two transactions of one run), the copy is undone and the rows go the staged way.
///
/// Staged rows stored already with the same values are left out before the upsert (`skipStored`)
/// while that pays: a re-import's rows are all stored, and checking first spares ON CONFLICT its row
/// lock per row; new rows would pay the check for nothing. Measurements are checked here, against
/// the stored rows of their key ranges read back in one range scan (`StoredRowFilter`), so a
/// re-import sends nothing; should those ranges hold far more than the batch, the server checks each
/// staged row by its primary key instead. The sink turns it on or off by what the
/// last transaction met (`mostlyStored`), as SQLite's writer switches between inserting and upserting.
struct StagedReadings {
    let table: PGTable
    var buffer = CopyBuffer()
    var later = CopyBuffer()
    var skipStored = true
    /// The key ranges of `buffer`'s rows, for leaving out before the upsert those stored already
    /// (measurements: `StoredRowFilter`; empty for events, which keep the probe).
    var stored = StoredRowFilter()
    private(set) var lastGeneration = 0
    /// Rows per (subject, import id): what a direct copy inserts.
    private(set) var groups: [Group: Int64] = [:]
    /// Rows per local day (nil day: the whole subject), counted in runs: a day all of whose rows
    /// were inserted new is not contested (`DayFreshness`).
    private var dayRows: [PendingDay: Int64] = [:]
    private var lastDay: PendingDay?
    private var lastDayRows: Int64 = 0

    struct Group: Hashable {
        var subject: Symbol
        var importID: Int64?
    }

    /// A (subject, local day) whose derived rows wait for a refresh; a nil day stands for all of them.
    struct PendingDay: Hashable {
        var subject: Symbol
        var day: Int64?
    }

    /// What moving the rows did, per (subject, import id).
    struct Moved {
        var subject: String
        var importID: Int64?
        /// Rows inserted new, and rows inserted or changed.
        var fresh: Int64, changed: Int64
    }

    /// What a flush did: rows moved, the days whose rows it inserted or changed, and the days where
    /// a staged row was not inserted new (it met a stored row, or its key came twice).
    struct Flushed {
        var moved: [Moved] = []
        var changed: Set<PendingDay> = []
        var contested: Set<PendingDay> = []
    }

    init(_ table: PGTable) { self.table = table }

    var rows: Int { buffer.rows + later.rows }
    var isEmpty: Bool { rows == 0 }
    var subjects: Set<Symbol> { Set(groups.keys.map(\.subject)) }

    /// Ends a row written to `buffer` (generation 0) or `later`; it counts on local `day` (nil: on
    /// every day of the subject).
    mutating func endRow(subject: Symbol, importID: Int64?, generation: Int, day: Int64?) {
        if lastDay?.day != day || lastDay?.subject != subject {
            if let l = lastDay { dayRows[l, default: 0] += lastDayRows }
            lastDay = PendingDay(subject: subject, day: day)
            lastDayRows = 0
        }
        lastDayRows += 1
        if generation == 0 {
            buffer.endRow()
        } else {
            later.int(Int64(generation))
            later.endRow()
            lastGeneration = max(lastGeneration, generation)
        }
        groups[Group(subject: subject, importID: importID), default: 0] += 1
    }

    mutating func reset() {
        buffer.reset()
        later.reset()
        groups.removeAll(keepingCapacity: true)
        stored.reset()
        dayRows.removeAll(keepingCapacity: true)
        lastDay = nil
        lastDayRows = 0
        lastGeneration = 0
    }

    /// How many staged rows lie on days `matching`.
    func rows(onDays matching: (PendingDay) -> Bool) -> Int {
        Int(stagedDays.reduce(0) { $0 + (matching($1.key) ? $1.value : 0) })
    }

    /// Staged rows per day.
    private var stagedDays: [PendingDay: Int64] {
        guard let l = lastDay else { return dayRows }
        var all = dayRows
        all[l, default: 0] += lastDayRows
        return all
    }

    /// Whether most of the rows `moved` were stored already and unchanged (nil when none were staged).
    func mostlyStored(_ moved: [Moved]) -> Bool? {
        guard rows > 0 else { return nil }
        let written = moved.reduce(Int64(0)) { $0 + $1.changed }
        return (Int64(rows) - written) * 2 > Int64(rows)
    }

    /// Moves the rows inside the caller's transaction; `direct` allows the straight copy.
    func flush(_ db: PGConnection, direct: Bool) throws -> Flushed {
        guard !isEmpty else { return Flushed() }
        let staged = stagedDays
        if direct, later.isEmpty, try db.newKeys({ try db.copy(into: table.name, columns: table.columns, rows: buffer.bytes) }) {
            let moved = groups.map { Moved(subject: $0.key.subject.text, importID: $0.key.importID, fresh: $0.value, changed: $0.value) }
            return Flushed(moved: moved, changed: Set(staged.keys))
        }
        // A re-import's rows: those stored exactly so are left out here; what is left is new or changed
        // — then the upsert skips the probe, which would decide the same — unless it still meets stored
        // keys (the same readings from another file).
        var first = buffer.bytes, probe = skipStored
        if skipStored, !stored.isEmpty, let unstored = try stored.unstored(buffer, table: table, db) {
            first = unstored.rows
            probe = unstored.keptMostlyStored
        }
        if !first.isEmpty { try db.copy(into: table.stage, columns: table.columns, rows: first) }
        if !later.isEmpty { try db.copy(into: table.stage, columns: table.copyColumns, rows: later.bytes) }
        var out = Flushed(), inserted: [PendingDay: Int64] = [:]
        let symbols = Dictionary(subjects.map { ($0.text, $0) }, uniquingKeysWith: { a, _ in a })
        for g in 0...lastGeneration where !first.isEmpty || g > 0 {
            let rows = try db.query(table.upsert(generation: lastGeneration == 0 ? nil : g, skipStored: probe))
            for r in 0..<rows.count {
                let m = Moved(subject: rows.text(r, 0) ?? "", importID: rows.text(r, 1).flatMap { Int64($0) },
                              fresh: rows.int(r, 2), changed: rows.int(r, 3))
                out.moved.append(m)
                let day = PendingDay(subject: symbols[m.subject] ?? Symbol(m.subject), day: rows.isNull(r, 4) ? nil : rows.int(r, 4))
                inserted[day, default: 0] += m.fresh
                if m.changed > 0 { out.changed.insert(day) }
            }
        }
        // Rows left out as stored (`skipStored`) or written over by a later generation were not new.
        for (day, n) in staged where inserted[day, default: 0] != n { out.contested.insert(day) }
        if !first.isEmpty || !later.isEmpty { try db.execute("TRUNCATE \(table.stage)") }
        return out
    }
}
