import HealthPipeCore

/// The id of each (subject, metric, source) series (`measurement_series`), found or created at its
/// first sight in a run on a connection outside the writer's transaction: an id never belongs to a
/// transaction that may roll back, and a series left without readings is harmless (readers look for
/// its rows). Readings come in runs of one series, so the last one found is checked first.
final class PGSeries {
    private let db: PGConnection
    private var ids: [Key: Int64] = [:]
    private var last: (key: Key, id: Int64)?

    struct Key: Hashable { var subject: Symbol, metric: Symbol, source: Symbol }

    init(db: PGConnection) { self.db = db }

    @inline(__always)
    func id(of m: HealthPipeCore.Measurement) throws -> Int64 {
        let key = Key(subject: m.subject, metric: m.metric, source: m.source)
        if let last, last.key == key { return last.id }
        let id = try ids[key] ?? find(key)
        last = (key, id)
        return id
    }

    private func find(_ key: Key) throws -> Int64 {
        let names = [key.subject.text, key.metric.text, key.source.text]
        let select = "SELECT id FROM measurement_series WHERE subject = $1 AND metric = $2 AND source = $3"
        var rows = try db.query(select, names)
        if rows.count == 0 {
            rows = try db.query("INSERT INTO measurement_series (subject, metric, source) VALUES ($1, $2, $3) "
                                + "ON CONFLICT DO NOTHING RETURNING id", names)
            // Another writer created it between the two statements.
            if rows.count == 0 { rows = try db.query(select, names) }
        }
        let id = rows.int(0, 0)
        ids[key] = id
        return id
    }
}
