import Foundation

/// A person's zone over time (`subject_zones`), the one home of "which zone is this person's
/// clock in": every typed time, every "now" and "today", reminders and uploads without offsets ask it.
/// Each period runs from its instant to the next one's; the earliest also covers everything before
/// it. A person without a zone has the `fallback` (`serve --timezone`, else this computer's zone).
public struct ZoneHistory: Sendable, Equatable {
    public struct Period: Sendable, Equatable {
        /// UTC epoch seconds from which `zone` applies.
        public var from: Int64
        /// An IANA name (Europe/Berlin) or ±HH:MM, as `ZoneResolver.timeZone(named:)` reads it.
        public var zone: String
        public init(from: Int64, zone: String) {
            self.from = from
            self.zone = zone
        }
    }

    /// Oldest first; only zones this build knows (a stored name it cannot read is left out).
    public let periods: [Period]
    private let zones: [TimeZone]
    public let fallback: TimeZone

    public init(periods: [Period], fallback: TimeZone) {
        let known = periods.sorted { $0.from < $1.from }.compactMap { p in ZoneResolver.timeZone(named: p.zone).map { (p, $0) } }
        self.periods = known.map(\.0)
        zones = known.map(\.1)
        self.fallback = fallback
    }

    public static func == (a: ZoneHistory, b: ZoneHistory) -> Bool {
        a.periods == b.periods && a.fallback.identifier == b.fallback.identifier
    }

    /// The `from` that means "since always": a person's first zone set without a date.
    public static let always = PlausibleTime.earliest

    /// True when the person has a zone of their own (else everything follows the fallback).
    public var isEmpty: Bool { periods.isEmpty }

    /// The zone in effect at `utc`.
    public func zone(at utc: Int64) -> TimeZone { index(at: utc).map { zones[$0] } ?? fallback }

    /// The person's own period in effect at `utc`; nil when they have no zone.
    public func period(at utc: Int64) -> Period? { index(at: utc).map { periods[$0] } }

    private func index(at utc: Int64) -> Int? {
        guard !periods.isEmpty else { return nil }
        return periods.lastIndex(where: { $0.from <= utc }) ?? 0
    }

    /// The local offset at `utc`.
    public func offset(at utc: Int64) -> Int32 { LocalTimeText.offset(of: zone(at: utc), at: utc) }

    /// The person's local day at `utc` (days since 1970-01-01).
    public func day(at utc: Int64) -> Int64 { LocalDays.day(utc, offset(at: utc)) }

    /// A typed moment (`LocalTimeText`): one with an offset keeps it; "now" takes the zone of now; a
    /// naive time is read in the zone in effect at the instant it names — in each period's zone, the
    /// newest period whose span holds the result (a time typed across a move is read as the move says).
    public func parse(_ text: String, now: Int64) -> ZoneResolver.Resolved? {
        if LocalTimeText.hasOffset(text) || zones.count < 2 { return LocalTimeText.parse(text, zone: zone(at: now), now: now) }
        for i in zones.indices.reversed() {
            guard let r = LocalTimeText.parse(text, zone: zones[i], now: now) else { return nil }
            if i == 0 || r.utc >= periods[i].from { return r }
        }
        return nil
    }
}
