/// The distinct subjects of a table whose primary key starts with `subject`, sorted: one seek per
/// subject (the next key after the last one found), so a ten-year store costs what a new one does.
enum SubjectWalk {
    static func subjects(of table: String, in db: SQLiteConnection, where keep: (String) throws -> Bool = { _ in true }) throws -> [String] {
        let first = try db.prepare("SELECT subject FROM \(table) ORDER BY subject LIMIT 1")
        let next = try db.prepare("SELECT subject FROM \(table) WHERE subject > ?1 ORDER BY subject LIMIT 1")
        var out: [String] = []
        var current = try first.step() ? first.text(0) : nil
        while let subject = current {
            if try keep(subject) { out.append(subject) }
            next.reset()
            try next.bindText(1, subject)
            current = try next.step() ? next.text(0) : nil
        }
        return out
    }
}
