import Foundation

/// Every derived row of a database, in key order: what the derived-data rule says must equal a
/// clean `reaggregate` of the same readings. Cells are text; numbers compare to 1e-9 (relative).
struct DerivedSnapshot: Equatable {
    static let queries: [(name: String, sql: String)] = [
        ("daily_summaries", "SELECT * FROM daily_summaries ORDER BY subject, day, metric"),
        ("daily_bands", "SELECT * FROM daily_bands ORDER BY subject, day, metric, band"),
        ("day_log", "SELECT * FROM day_log ORDER BY subject, day"),
        ("glucose_metrics", "SELECT * FROM glucose_metrics ORDER BY subject, metric, period_start, period_end, name"),
        ("glucose_agp", "SELECT * FROM glucose_agp ORDER BY subject, metric, period_start, period_end, minute_of_day"),
        ("forecasts", "SELECT * FROM forecasts ORDER BY subject, metric, model, issued_at, at"),
        ("alerts", "SELECT * FROM alerts ORDER BY subject, metric, kind, start"),
        ("report_days", "SELECT * FROM report_days ORDER BY subject, day, metric"),
        ("bands", "SELECT subject, metric, source, start, end, band FROM measurements WHERE flags & 128 = 0 ORDER BY 1, 2, 3, 4, 5"),
        ("grid", "SELECT subject, metric, source, start, end, value, utc_offset, unit, flags FROM measurements "
            + "WHERE flags & 128 != 0 ORDER BY 1, 2, 3, 4, 5"),
        ("pending", "SELECT count(*) FROM derived_pending"),
    ]

    var tables: [String: [[String]]] = [:]

    init(_ db: URL) {
        for (name, sql) in Self.queries { tables[name] = E2E.query(db, sql) }
    }

    /// Row counts, for messages.
    var sizes: String { Self.queries.map { "\($0.name) \(tables[$0.name]?.count ?? 0)" }.joined(separator: ", ") }

    /// nil when equal (numbers to 1e-9 relative), else the first difference found.
    func difference(from other: DerivedSnapshot) -> String? {
        for (name, _) in Self.queries {
            let a = tables[name] ?? [], b = other.tables[name] ?? []
            guard a.count == b.count else {
                let missing = Set(b.map { $0.joined(separator: "|") }).subtracting(a.map { $0.joined(separator: "|") }).prefix(2)
                let extra = Set(a.map { $0.joined(separator: "|") }).subtracting(b.map { $0.joined(separator: "|") }).prefix(2)
                return "\(name): \(a.count) rows vs \(b.count); only here \(Array(extra)); only there \(Array(missing))"
            }
            for (ra, rb) in zip(a, b) where !Self.same(ra, rb) {
                return "\(name): \(ra) vs \(rb)"
            }
        }
        return nil
    }

    static func same(_ a: [String], _ b: [String]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            guard let u = Double(x), let v = Double(y), abs(u - v) <= 1e-9 * max(1, abs(u), abs(v)) else { return false }
        }
        return true
    }

    static func == (a: DerivedSnapshot, b: DerivedSnapshot) -> Bool { a.difference(from: b) == nil }
}
