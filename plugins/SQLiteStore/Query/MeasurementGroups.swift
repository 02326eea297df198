/// The distinct (subject, metric, source) of `measurements`, in key order.
struct MeasurementGroup: Hashable {
    var subject: String, metric: String, source: String
}

/// Finds the groups by a skip-scan of the primary key: one seek per group, not a scan of every row.
/// Each step asks for the next source of the same metric, else the next metric of the subject, else
/// the next subject: a range on one key column after equal ones is a seek, where a row-value
/// comparison `(subject, metric, source) > (…)` walks through all rows of the previous group.
enum MeasurementGroups {
    static func all(_ db: SQLiteConnection) throws -> [MeasurementGroup] {
        let nextSource = try db.prepare("""
            SELECT source FROM measurements WHERE subject = ?1 AND metric = ?2 AND source > ?3 ORDER BY source LIMIT 1
            """)
        let nextMetric = try db.prepare("""
            SELECT metric, source FROM measurements WHERE subject = ?1 AND metric > ?2 ORDER BY metric, source LIMIT 1
            """)
        let nextSubject = try db.prepare("""
            SELECT subject, metric, source FROM measurements WHERE subject > ?1 ORDER BY subject, metric, source LIMIT 1
            """)
        let first = try db.prepare("SELECT subject, metric, source FROM measurements ORDER BY subject, metric, source LIMIT 1")
        func text(_ s: Statement, _ column: Int32) -> String { s.text(column) ?? "" }

        var groups: [MeasurementGroup] = []
        var found = try first.step() ? MeasurementGroup(subject: text(first, 0), metric: text(first, 1), source: text(first, 2)) : nil
        while let g = found {
            groups.append(g)
            found = nil
            nextSource.reset()
            try nextSource.bindText(1, g.subject)
            try nextSource.bindText(2, g.metric)
            try nextSource.bindText(3, g.source)
            if try nextSource.step() {
                found = MeasurementGroup(subject: g.subject, metric: g.metric, source: text(nextSource, 0))
                continue
            }
            nextMetric.reset()
            try nextMetric.bindText(1, g.subject)
            try nextMetric.bindText(2, g.metric)
            if try nextMetric.step() {
                found = MeasurementGroup(subject: g.subject, metric: text(nextMetric, 0), source: text(nextMetric, 1))
                continue
            }
            nextSubject.reset()
            try nextSubject.bindText(1, g.subject)
            if try nextSubject.step() {
                found = MeasurementGroup(subject: text(nextSubject, 0), metric: text(nextSubject, 1), source: text(nextSubject, 2))
            }
        }
        return groups
    }
}
