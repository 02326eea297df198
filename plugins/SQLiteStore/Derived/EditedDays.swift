import HealthPipeCore

/// The days an edit outside an import changed — a report or manual entry deleted (`HealthLogEdits`),
/// a row a Nightscout client deleted (`RowDeletion`) — made pending in the edit's own transaction,
/// so the refresh after it (`EditRefresh`) derives them again as an import would.
enum EditedDays {
    static func markPending(_ db: SQLiteConnection, subject: String, days: some Sequence<Int64>) throws {
        let s = try db.prepare("INSERT OR IGNORE INTO derived_pending (subject, day) VALUES (?1, ?2)")
        for d in days {
            try s.bindText(1, subject)
            try s.bindText(2, CivilDate.isoDate(fromDays: d))
            try s.run()
        }
    }

    /// The days an event counted in; an open episode also every day summarised after its start.
    static func markPending(_ db: SQLiteConnection, subject: String, event: Event) throws {
        try markPending(db, subject: subject, days: EventWriter.days(of: event))
        if EpisodeSpan.isOpen(event) {
            let s = try db.prepare(EventWriter.pendingFromSQL)
            try s.bindText(1, subject)
            try s.bindText(2, CivilDate.isoDate(fromDays: event.localDay))
            try s.run()
        }
    }
}
