import HealthPipeCore

/// Measurements or events waiting for the next transaction.
///
/// A key's first row in the transaction goes to `buffer`; a row whose key was already staged (two
/// exports of one reading in one run) goes to `later` with its generation — 1 the second time, 2 the
/// third… Generations are moved one after the other, so a key staged twice is written twice in the
/// order it came: the later write wins and each write that changes the row counts, exactly as the
/// SQLite sink writes row by row.
///
/// When every subject in the transaction had nothing stored before this run, the rows are COPYed
/// straight into the table — no staging, no ON CONFLICT, which cost PostgreSQL twice the time of the
/// copy itself — inside a savepoint; should a key be there after all (the same reading in two
/// transactions of one run), the copy is undone and the rows go the staged way.
///
/// Staged rows stored already with the same values are left out before the upsert (`skipStored`)
/// while that pays: a re-import's rows are all stored, and checking first spares ON CONFLICT its row
/// lock per row; new rows would pay the check for nothing. The sink turns it on or off by what the
/// last transaction met (`mostlyStored`), as SQLite's writer switches between inserting and upserting.
struct StagedReadings {
    let table: PGTable
    var buffer = CopyBuffer()
    var later = CopyBuffer()
    var skipStored = true
    private(set) var lastGeneration = 0
    /// Rows per (subject, import id): what a direct copy inserts, and what makes a subject "clean".
    private(set) var groups: [Group: Int64] = [:]
    /// The local days of the staged rows (nil day: the whole subject): what a direct copy changes.
    private var days: Set<PendingDay> = []
    private var lastDay: PendingDay?

    struct Group: Hashable {
        var subject: Symbol
        var importID: Int64?
    }

    /// A (subject, local day) whose derived rows wait for a refresh; a nil day stands for all of them.
    struct PendingDay: Hashable {
        var subject: String
        var day: Int64?
    }

    /// What moving the rows did, per (subject, import id).
    struct Moved {
        var subject: String
        var importID: Int64?
        /// Rows inserted new, and rows inserted or changed.
        var fresh: Int64, changed: Int64
    }

    init(_ table: PGTable) { self.table = table }

    var rows: Int { buffer.rows + later.rows }
    var isEmpty: Bool { rows == 0 }
    var subjects: Set<Symbol> { Set(groups.keys.map(\.subject)) }

    /// Ends a row written to `buffer` (generation 0) or `later`; it counts on local `day` (nil: on
    /// every day of the subject).
    mutating func endRow(subject: Symbol, importID: Int64?, generation: Int, day: Int64?) {
        if lastDay?.day != day || lastDay?.subject != subject.text {
            let d = PendingDay(subject: subject.text, day: day)
            days.insert(d)
            lastDay = d
        }
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
        days.removeAll(keepingCapacity: true)
        lastDay = nil
        lastGeneration = 0
    }

    /// Whether most of the rows `moved` were stored already and unchanged (nil when none were staged).
    func mostlyStored(_ moved: [Moved]) -> Bool? {
        guard rows > 0 else { return nil }
        let written = moved.reduce(Int64(0)) { $0 + $1.changed }
        return (Int64(rows) - written) * 2 > Int64(rows)
    }

    /// Moves the rows inside the caller's transaction; `direct` allows the straight copy. Returns what
    /// moved and the days whose rows it inserted or changed.
    func flush(_ db: PGConnection, direct: Bool) throws -> (moved: [Moved], changedDays: Set<PendingDay>) {
        guard !isEmpty else { return ([], []) }
        if direct, later.isEmpty {
            try db.execute("SAVEPOINT hp_direct")
            do {
                try db.copy(into: table.name, columns: table.columns, rows: buffer.bytes)
                try db.execute("RELEASE SAVEPOINT hp_direct")
                return (groups.map { Moved(subject: $0.key.subject.text, importID: $0.key.importID, fresh: $0.value, changed: $0.value) }, days)
            } catch let e as PGError where e.sqlState == "23505" {  // unique_violation: a key is stored already
                try db.execute("ROLLBACK TO SAVEPOINT hp_direct")
            }
        }
        if !buffer.isEmpty { try db.copy(into: table.stage, columns: table.columns, rows: buffer.bytes) }
        if !later.isEmpty { try db.copy(into: table.stage, columns: table.copyColumns, rows: later.bytes) }
        var moved: [Moved] = [], changedDays = Set<PendingDay>()
        for g in 0...lastGeneration {
            let rows = try db.query(table.upsert(generation: lastGeneration == 0 ? nil : g, skipStored: skipStored))
            for r in 0..<rows.count {
                let m = Moved(subject: rows.text(r, 0) ?? "", importID: rows.text(r, 1).flatMap { Int64($0) },
                              fresh: rows.int(r, 2), changed: rows.int(r, 3))
                moved.append(m)
                if m.changed > 0 { changedDays.insert(PendingDay(subject: m.subject, day: rows.isNull(r, 4) ? nil : rows.int(r, 4))) }
            }
        }
        try db.execute("TRUNCATE \(table.stage)")
        return (moved, changedDays)
    }
}
