import HealthPipeCore

/// The day totals of a run's events: each event once by its natural key (the last arrival wins),
/// summed exactly per subject and local day (`ExactSum`), so any order of arrival — and any order of
/// two events at one instant, which the ledger ranks by interned ids — gives the same totals.
/// Illness and stress episodes mark every local day they span (a marker without an end lasts
/// `markerSeconds`); exercise counts on its start day. Open episodes are returned apart: they mark
/// every day from their start that has a row (`EpisodeSpan`).
enum EventDays {
    /// Per subject, the first local day of its open illness and stress episodes.
    struct Open {
        var illness: Int64?
        var stress: Int64?
    }

    static func collect(_ ledger: ExternalSorter<LedgerEvent>, markerSeconds: Int64 = EpisodeSpan.defaultMarkerSeconds) throws
        -> (days: [SubjectDay: EventDay], open: [Symbol: Open]) {
        // The ledger drains in (subject, start, kind, subtype, source, amount) order, which drops repeated
        // keys; the sums themselves are exact, so they do not depend on that order.
        var days: [SubjectDay: EventDay] = [:]
        var flags: [SubjectDay: (illness: Bool, stress: Bool)] = [:]
        var open: [Symbol: Open] = [:]
        var previous: LedgerEvent?
        func take(_ e: LedgerEvent) {
            let subject = Symbol(id: e.subject)
            let day = LocalDays.day(e.start, e.utcOffset)
            switch e.eventKind {
            case .meal: days[SubjectDay(subject: subject, day: day), default: EventDay()].carbsSum.add(e.carbs)
            case .insulin: days[SubjectDay(subject: subject, day: day), default: EventDay()].insulinSum.add(e.insulin)
            case .exercise:
                days[SubjectDay(subject: subject, day: day), default: EventDay()].exerciseSum.add(Double(e.end - e.start) / 60)
            case .episode:
                let subtype = Symbol(id: e.subtype)
                guard EpisodeKinds.marksDays(subtype) else { return }
                if e.open {
                    var o = open[subject] ?? Open()
                    if subtype == EpisodeKinds.illness { o.illness = min(o.illness ?? day, day) } else { o.stress = min(o.stress ?? day, day) }
                    open[subject] = o
                }
                let end = e.end == e.start && !e.open ? e.start + markerSeconds : e.end
                let last = LocalDays.day(end, e.utcOffset)
                for d in day...max(day, last) {
                    var f = flags[SubjectDay(subject: subject, day: d)] ?? (false, false)
                    if subtype == EpisodeKinds.illness { f.illness = true } else { f.stress = true }
                    flags[SubjectDay(subject: subject, day: d)] = f
                }
            default: break
            }
        }
        try ledger.drain { e in
            if let p = previous, !p.sameKey(e) { take(p) }
            previous = e
        }
        if let p = previous { take(p) }

        for (key, f) in flags {
            days[key, default: EventDay()].illness = days[key, default: EventDay()].illness || f.illness
            days[key, default: EventDay()].stress = days[key, default: EventDay()].stress || f.stress
        }
        return (days, open)
    }
}

extension EventDays.Open {
    /// The day's totals with the flags of the subject's open episodes that started by then.
    func applied(to e: EventDay, day: Int64) -> EventDay {
        var out = e
        if let s = illness, day >= s { out.illness = true }
        if let s = stress, day >= s { out.stress = true }
        return out
    }
}
