import HealthPipeCore

/// The day totals of a run's events: each event once by its natural key (the last arrival wins),
/// summed per subject and local day in time order, so any order of arrival gives the same totals.
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
        struct Part { var day: Int64; var start: Int64; var amount: Double; var carbs = 0.0, insulin = 0.0, minutes = 0.0 }
        var parts: [Symbol: [Part]] = [:]
        var flags: [SubjectDay: (illness: Bool, stress: Bool)] = [:]
        var open: [Symbol: Open] = [:]
        var previous: LedgerEvent?
        func take(_ e: LedgerEvent) {
            let subject = Symbol(id: e.subject)
            let day = CivilDate.floorDiv(e.start + Int64(e.utcOffset), 86_400)
            switch e.eventKind {
            case .meal: parts[subject, default: []].append(Part(day: day, start: e.start, amount: e.amount, carbs: e.carbs))
            case .insulin: parts[subject, default: []].append(Part(day: day, start: e.start, amount: e.amount, insulin: e.insulin))
            case .exercise:
                parts[subject, default: []].append(Part(day: day, start: e.start, amount: e.amount,
                                                        minutes: Double(e.end - e.start) / 60))
            case .episode:
                let subtype = Symbol(id: e.subtype)
                guard EpisodeKinds.marksDays(subtype) else { return }
                if e.open {
                    var o = open[subject] ?? Open()
                    if subtype == EpisodeKinds.illness { o.illness = min(o.illness ?? day, day) } else { o.stress = min(o.stress ?? day, day) }
                    open[subject] = o
                }
                let end = e.end == e.start && !e.open ? e.start + markerSeconds : e.end
                let last = CivilDate.floorDiv(end + Int64(e.utcOffset), 86_400)
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

        var days: [SubjectDay: EventDay] = [:]
        for (subject, list) in parts {
            for p in list.sorted(by: { ($0.day, $0.start, $0.amount, $0.minutes) < ($1.day, $1.start, $1.amount, $1.minutes) }) {
                let key = SubjectDay(subject: subject, day: p.day)
                days[key, default: EventDay()].carbs += p.carbs
                days[key, default: EventDay()].insulin += p.insulin
                days[key, default: EventDay()].exerciseMinutes += p.minutes
            }
        }
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
