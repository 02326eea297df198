/// Every subject a database holds anything for — readings, events, health reports, manual entries,
/// motion sessions, profiles, zones — sorted. The one list the CLI's subject rule chooses from
/// (`--subject`, else the only subject, else an error naming them). Tables keyed by subject first
/// are walked one seek per subject, so a ten-year store costs what a new one does.
public enum StoreSubjects {
    /// Tables whose primary key starts with `subject`: walked by seeks.
    static let keyed = ["measurements", "events"]
    /// Small tables: read whole.
    static let small = ["reports", "manual_entries", "motion_sessions", "subject_profiles", "subject_zones"]

    public static func all(path: String) throws -> [String] {
        let db = try SQLiteConnection.open(path: path, readOnly: true)
        let tables = try Set(names(db))
        var subjects = Set<String>()
        for table in keyed where tables.contains(table) { subjects.formUnion(try SubjectWalk.subjects(of: table, in: db)) }
        for table in small where tables.contains(table) {
            let s = try db.prepare("SELECT DISTINCT subject FROM \(table)")
            while try s.step() { if let t = s.text(0) { subjects.insert(t) } }
        }
        return subjects.sorted()
    }

    private static func names(_ db: SQLiteConnection) throws -> [String] {
        let s = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        var out: [String] = []
        while try s.step() { if let t = s.text(0) { out.append(t) } }
        return out
    }
}
