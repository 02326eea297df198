import HealthPipeCore

/// A subject's stored health reports with their values, in time order: what the `reports` step
/// derives the daily summary reports and report alerts from (all of a subject's, whatever days a
/// refresh reads, since both are computed over the whole history; reports are few).
enum ReportCursor {
    static func read(_ db: SQLiteConnection, subject: String, _ take: (HealthReport) throws -> Void) throws {
        guard try Migrator.version(of: db) >= SchemaV9.migration.version else { return }
        let s = try db.prepare("""
            SELECT r.id, r.start, r.utc_offset, r.note, v.metric, v.value, v.unit, v.importance
              FROM reports r JOIN report_values v ON v.subject = r.subject AND v.report_id = r.id
             WHERE r.subject = ?1 ORDER BY r.start, r.id, v.metric
            """)
        try s.bindText(1, subject)
        let subjectSymbol = Symbol(subject)
        var current: HealthReport?
        var symbols: [String: Symbol] = [:]
        func symbol(_ text: String?) -> Symbol {
            let t = text ?? ""
            if let hit = symbols[t] { return hit }
            let sym = Symbol(t)
            symbols[t] = sym
            return sym
        }
        while try s.step() {
            let id = s.text(0) ?? ""
            if current?.id != id {
                if let r = current { try take(r) }
                current = HealthReport(id: id, subject: subjectSymbol, start: s.int(1), utcOffset: Int32(truncatingIfNeeded: s.int(2)),
                                       values: [], note: s.text(3))
            }
            current!.values.append(.init(metric: symbol(s.text(4)), value: s.double(5), unit: symbol(s.text(6)),
                                         importance: Int(s.int(7))))
        }
        if let r = current { try take(r) }
    }
}
