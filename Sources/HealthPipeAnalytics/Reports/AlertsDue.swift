import Foundation
import HealthPipeCore

/// What deciding which alerts are due reads from a store (the SQLite health log implements it).
public protocol AlertsDueStore {
    /// The stored alerts of these kinds.
    func alerts(subject: String, kinds: [Alert.Kind]) throws -> [Alert]
    /// Whether a health report was made on this local day.
    func hasReport(subject: String, day: Int64) throws -> Bool
    /// The end of today's snooze of the reminder, if any.
    func snooze(subject: String, day: Int64) throws -> Int64?
    /// The due time an alert was last announced for.
    func noticeDue(subject: String, kind: Alert.Kind, metric: String, start: Int64) throws -> Int64?
}

/// What `healthpipe alerts check` announces at a moment: today's reminder when no report was made
/// by its time (or by the end of its snooze), and every threshold alert that started by now and
/// is not over for more than a day. Each is announced once per due time: `alert_notices` keeps
/// what was announced, so a check every few minutes notifies once (and again after a snooze ends).
public struct AlertsDue {
    public struct Due: Sendable {
        public var subject: String
        public var kind: Alert.Kind
        public var metric: String
        /// The alert's start (for a reminder: its time today, before any snooze).
        public var start: Int64
        /// When it became due (a snoozed reminder: the end of the snooze).
        public var due: Int64
        public var offset: Int32
        public var text: String
    }

    let queries: any AlertsDueStore
    let settings: ReportAlertSettings
    let zone: TimeZone

    public init(queries: any AlertsDueStore, settings: ReportAlertSettings, zone: TimeZone) {
        self.queries = queries
        self.settings = settings
        self.zone = zone
    }

    public func due(subject: String, now: Int64) throws -> [Due] {
        var out: [Due] = []
        if let minute = settings.reminderMinute, let r = try reminder(subject: subject, minute: minute, now: now) { out.append(r) }
        for a in try queries.alerts(subject: subject, kinds: [.averageAbove, .averageBelow]) where a.start <= now && a.end >= now - 86_400 {
            out.append(Due(subject: subject, kind: a.kind, metric: a.metric.text, start: a.start, due: a.start, offset: a.utcOffset,
                           text: Self.describe(a, settings)))
        }
        return out
    }

    /// `7-day average of body_temperature (importance ≥ 4) is 38.03 °C, above 37.5 °C since 2024-03-07 08:00`.
    public static func describe(_ a: Alert, _ settings: ReportAlertSettings) -> String {
        let t = settings.thresholds.first { $0.metric == a.metric && $0.kind == a.kind }
        let period = t.map { "\($0.days)-day" } ?? "period"
        let importance = t.map { " (importance ≥ \($0.minImportance))" } ?? ""
        let unit = t.map { $0.unit.isEmpty ? "" : " " + CanonicalUnits.shown($0.unit.text) } ?? ""
        return "\(period) average of \(a.metric.text)\(importance) is \(number(a.value))\(unit), "
            + "\(a.kind == .averageAbove ? "above" : "below") \(number(a.threshold))\(unit) since "
            + LocalTimeText.wallClock(utc: a.start, offset: a.utcOffset)
    }

    /// Today's reminder, when it is due: past its time (or its snooze) and no report made today.
    public func reminder(subject: String, minute: Int, now: Int64) throws -> Due? {
        let today = LocalDays.day(now, LocalTimeText.offset(of: zone, at: now))
        var resolver = ZoneResolver(zone: zone)
        let dueAt = try resolver.resolve(local: today * 86_400 + Int64(minute) * 60)
        guard now >= dueAt.utc, !(try queries.hasReport(subject: subject, day: today)) else { return nil }
        let until = try queries.snooze(subject: subject, day: today) ?? dueAt.utc
        guard now >= until else { return nil }
        let due = max(until, dueAt.utc)
        let when = LocalTimeText.wallClock(utc: due, offset: LocalTimeText.offset(of: zone, at: due))
        return Due(subject: subject, kind: .reminder, metric: "report", start: dueAt.utc, due: due, offset: dueAt.offset,
                   text: "no health report yet today (\(CivilDate.isoDate(fromDays: today))); due at \(String(when.suffix(5)))"
                       + (due > dueAt.utc ? " after a snooze" : "")
                       + ": add one with `healthpipe reports add`, or postpone it with `healthpipe alerts snooze --until HH:MM`")
    }

    /// The ones not announced yet for their due time.
    public func unannounced(_ list: [Due]) throws -> [Due] {
        try list.filter { d in
            try queries.noticeDue(subject: d.subject, kind: d.kind, metric: d.metric, start: d.start) != d.due
        }
    }

    public static func number(_ v: Double) -> String { HealthValues.text((v * 100).rounded() / 100) }
}
