/// Keeps rows deleted by hand (`RowDeletion`, `deleted_rows`) deleted when an import brings them
/// again: just before each commit, the rows the import wrote again at a deleted row's key are
/// deleted again (their days stay pending, so the refresh derives the day without them). With
/// `restore` (`import --restore-deleted`) the import brings them back instead: the deletions it
/// wrote over are forgotten. A store without deletions pays one count when the sink opens; with
/// some, one keyed statement per deleted row and commit — never anything per imported row.
final class DeletedRowsGuard {
    private let db: SQLiteConnection
    private let restore: Bool
    private let active: Bool
    /// Rows the import brought again and this removed (kept deleted).
    private(set) var keptDeleted = 0

    init(db: SQLiteConnection, restore: Bool) throws {
        self.db = db
        self.restore = restore
        let count = try db.prepare("SELECT EXISTS (SELECT 1 FROM deleted_rows)")
        active = try count.step() && count.int(0) != 0
    }

    /// Runs inside the import's transaction, before COMMIT.
    func apply() throws {
        guard active else { return }
        let d = "deleted_rows"
        let readingKey = "m.subject = \(d).subject AND m.metric = \(d).name AND m.source = \(d).source AND m.start = \(d).start AND m.\"end\" = \(d).\"end\""
        let eventKey = "e.subject = \(d).subject AND e.kind = \(d).name AND e.subtype = \(d).subtype AND e.source = \(d).source "
            + "AND e.start = \(d).start AND e.amount = \(d).amount"
        if restore {
            try db.execute("""
                DELETE FROM deleted_rows WHERE
                  (row_table = 'measurements' AND EXISTS (SELECT 1 FROM measurements m WHERE \(readingKey)))
                  OR (row_table = 'events' AND EXISTS (SELECT 1 FROM events e WHERE \(eventKey)))
                """)
            return
        }
        // One keyed delete per remembered row (the tables are WITHOUT ROWID, keyed by these columns).
        let keys = try db.prepare("SELECT row_table, subject, name, subtype, source, start, \"end\", amount FROM deleted_rows")
        let reading = try db.prepare("DELETE FROM measurements WHERE \(RowDeletion.readingKey)")
        let event = try db.prepare("DELETE FROM events WHERE \(RowDeletion.eventKey) AND amount = ?6")
        var rows: [(subject: String, target: RowDeletion.Target, amount: Double)] = []
        while try keys.step() {
            rows.append((keys.text(1) ?? "", RowDeletion.Target(table: RowDeletion.Table(rawValue: keys.text(0) ?? "") ?? .measurements,
                                                                  name: keys.text(2) ?? "", subtype: keys.text(3) ?? "", source: keys.text(4) ?? "",
                                                                  start: keys.int(5), end: keys.int(6)), keys.double(7)))
        }
        for row in rows {
            let s = row.target.table == .measurements ? reading : event
            try RowDeletion.bindKey(s, row.target, subject: row.subject)
            if row.target.table == .events { try s.bindDouble(6, row.amount) }
            try s.run()
            keptDeleted += db.changes
        }
    }
}
