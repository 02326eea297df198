import Foundation
import HealthPipeCore

/// The options of one hand-made entry, as `healthpipe reports add` / `healthpipe add` build them or
/// a pipeline writes them. The checks are the drafts' (`ReportDraft`, `EntryDraft`), shared with the
/// file sources; a refusal names the flag (or option) its value came from.
struct EntryOptions: Decodable {
    var kind: EntryKind
    var id: String?
    var at: String
    var end: String?
    var timezone: String?
    var subject: String?
    var note: String?
    // report
    var values: [String]?
    // insulin
    var units: Double?
    var basal: Bool?
    // meal
    var carbs: Double?
    var protein: Double?
    var fat: Double?
    // meal and exercise
    var name: String?
    // exercise
    var minutes: Double?
    var intensity: String?

    /// The records the entry stands for: the report or the entry, and the rows they own.
    func records(_ b: ComponentBuilder, now: Int64) throws -> RecordBatch {
        let who = subject ?? b.settings.subject
        let zone = try b.zone(timezone).map { ZoneHistory(periods: [], fallback: $0) } ?? b.settings.personZones[who]
        let start = try instant(at, option: "at", zone: zone, now: now, b)
        let subject = Symbol(who)
        var batch = RecordBatch()
        if kind == .report {
            for (option, given) in [("units", units != nil), ("carbs", carbs != nil), ("minutes", minutes != nil), ("end", end != nil)] where given {
                throw b.error("a report takes values, not '\(option)'", option: option)
            }
            var draft = ReportDraft(id: id, subject: subject, start: start.utc, utcOffset: start.offset, note: note)
            for text in values ?? [] {
                switch HealthValueText.parse(text) {
                case .failure(let p): throw b.error(p.message, option: "values")
                case .success(let v): if let p = draft.add(v) { throw b.error("'\(text)': \(p.message)", option: "values") }
                }
            }
            let r = try draft.report().get(b)
            batch.reports = [r]
            batch.measurements = r.measurements
            return batch
        }
        if values != nil { throw b.error("only a report takes values", option: "values") }
        var draft = EntryDraft(kind: kind, id: id, subject: subject, start: start.utc, utcOffset: start.offset)
        draft.timeFlags = start.flags
        if let end {
            let e = try instant(end, option: "end", zone: zone, now: now, b)
            guard e.utc >= start.utc else {
                throw b.error("end \(LocalTimeText.wallClock(utc: e.utc, offset: e.offset)) is before the start "
                              + LocalTimeText.wallClock(utc: start.utc, offset: start.offset), option: "end")
            }
            draft.end = e.utc
        }
        draft.units = units
        draft.basal = basal ?? false
        draft.carbs = carbs
        draft.protein = protein
        draft.fat = fat
        draft.name = name
        draft.minutes = minutes
        draft.intensity = intensity
        draft.note = note
        let entry = try draft.entry().get(b)
        batch.entries = [entry]
        batch.events = [entry.event]
        return batch
    }

    /// A moment with an offset, or a naive local time in the stage's (or run's) zone, else on the
    /// person's clock as the store knows it; never more than a day past the clock.
    private func instant(_ text: String, option: String, zone: ZoneHistory?, now: Int64, _ b: ComponentBuilder) throws -> ZoneResolver.Resolved {
        let r = try parsedInstant(text, option: option, zone: zone, now: now, b)
        if let why = PlausibleTime.aheadProblem(option == "at" ? "time" : option, utc: r.utc, offset: r.offset, now: now) {
            throw b.error(why, option: option)
        }
        return r
    }

    private func parsedInstant(_ text: String, option: String, zone: ZoneHistory?, now: Int64, _ b: ComponentBuilder) throws -> ZoneResolver.Resolved {
        if LocalTimeText.hasOffset(text), let r = LocalTimeText.parse(text, zone: TimeZone(secondsFromGMT: 0)!, now: now) { return r }
        guard let zone else {
            throw b.error("'\(text)' has no offset: give one (2024-03-05T20:00:00+01:00) or a timezone", option: option)
        }
        guard let r = zone.parse(text, now: now) else {
            throw b.error("'\(text)' is not a time such as 2024-03-05 20:00, 20:00 or now", option: option)
        }
        return r
    }
}

extension Result where Failure == EntryProblem {
    /// The value, or the problem as a configuration error naming its option.
    func get(_ b: ComponentBuilder) throws -> Success {
        switch self {
        case .success(let v): return v
        case .failure(let p): throw b.error(p.message, option: p.field)
        }
    }
}
