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
        let reading = try db.prepare("DELETE FROM measurements WHERE subject = ?1 AND metric = ?2 AND source = ?3 AND start = ?4 AND \"end\" = ?5")
        let event = try db.prepare("DELETE FROM events WHERE subject = ?1 AND kind = ?2 AND subtype = ?3 AND source = ?4 AND start = ?5 AND amount = ?6")
        var targets: [(String, String, String, String, String, Int64, Int64, Double)] = []
        while try keys.step() {
            targets.append((keys.text(0) ?? "", keys.text(1) ?? "", keys.text(2) ?? "", keys.text(3) ?? "", keys.text(4) ?? "",
                            keys.int(5), keys.int(6), keys.double(7)))
        }
        for (table, subject, name, subtype, source, start, end, amount) in targets {
            if table == RowDeletion.Table.measurements.rawValue {
                try reading.bindText(1, subject)
                try reading.bindText(2, name)
                try reading.bindText(3, source)
                try reading.bindInt(4, start)
                try reading.bindInt(5, end)
                try reading.run()
            } else {
                try event.bindText(1, subject)
                try event.bindText(2, name)
                try event.bindText(3, subtype)
                try event.bindText(4, source)
                try event.bindInt(5, start)
                try event.bindDouble(6, amount)
                try event.run()
            }
            keptDeleted += db.changes
        }
    }
}
