import HealthPipeCore

/// The pending days of a database, by subject (sorted), as one transaction sees them.
struct PendingSet {
    var days: [String: [Int64]] = [:]

    init(_ db: SQLiteConnection) throws {
        let s = try db.prepare("SELECT subject, day FROM derived_pending ORDER BY subject, day")
        while try s.step() {
            guard let subject = s.text(0), let day = s.text(1).flatMap({ CivilDate.days(fromISO: $0) }) else { continue }
            days[subject, default: []].append(day)
        }
    }

    var isEmpty: Bool { days.isEmpty }

    /// Inclusive local-day ranges around a subject's pending days, `margin` wide on each side, merged.
    func ranges(_ subject: String, margin: Int64) -> [ClosedRange<Int64>] {
        LocalDayRanges.around(days[subject] ?? [], margin: margin)
    }
}
