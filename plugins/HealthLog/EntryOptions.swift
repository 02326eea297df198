import Foundation
import HealthPipeCore

/// The options of one hand-made entry, as `healthpipe reports add` / `healthpipe add` build them or
/// a pipeline writes them. Every check a person's typing can fail is here, so the command line and
/// a pipeline refuse the same things with the same words (naming the flag the value came from).
struct EntryOptions: Decodable {
    var kind: EntryKind
    var id: String?
    var at: String
    var end: String?
    var open: Bool?
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

    static let intensities = ["light", "medium", "heavy"]
    /// A moment more than this far past the clock is a typing mistake.
    static let futureLimit: Int64 = 86_400

    /// The records the entry stands for: the report or the entry, and the rows they own.
    func records(_ b: ComponentBuilder, now: Int64) throws -> RecordBatch {
        let zone = try b.zone(timezone)
        let start = try instant(at, option: "at", zone: zone, b)
        guard start.utc <= now + Self.futureLimit else {
            throw b.error("\(LocalTimeText.wallClock(utc: start.utc, offset: start.offset)) is more than a day in the future", option: "at")
        }
        let subject = Symbol(subject ?? b.settings.subject)
        if let id, !EntryIDs.isValid(id) {
            throw b.error("id '\(id)' may hold only letters, digits, '.', '_', ':' and '-' (at most 64)", option: "id")
        }
        let id = self.id ?? EntryIDs.make(kind, utc: start.utc, offset: start.offset)
        var batch = RecordBatch()
        if kind == .report {
            let r = try report(id: id, subject: subject, start: start, b)
            batch.reports = [r]
            batch.measurements = r.measurements
            return batch
        }
        let e = try event(subject: subject, start: start, zone: zone, b)
        batch.entries = [ManualEntry(id: id, event: e)]
        batch.events = [e]
        return batch
    }

    private func report(id: String, subject: Symbol, start: ZoneResolver.Resolved, _ b: ComponentBuilder) throws -> HealthReport {
        for unused in [("units", units != nil), ("carbs", carbs != nil), ("minutes", minutes != nil), ("end", end != nil)] where unused.1 {
            throw b.error("a report takes values, not '\(unused.0)'", option: unused.0)
        }
        var out: [HealthReport.Value] = []
        for text in values ?? [] {
            switch HealthValueText.parse(text) {
            case .failure(let p): throw b.error(p.message, option: "values")
            case .success(let v):
                if out.contains(where: { $0.metric == v.metric }) {
                    throw b.error("'\(text)': \(v.metric.text) is given twice in one report", option: "values")
                }
                out.append(v)
            }
        }
        guard out.count >= HealthReport.minimumValues else {
            throw b.error("a report needs at least \(HealthReport.minimumValues) values (got \(out.count)), "
                          + "e.g. body_temperature=37.8:4 and blood_pressure_systolic=135:3", option: "values")
        }
        return HealthReport(id: id, subject: subject, start: start.utc, utcOffset: start.offset, values: out,
                            note: note.flatMap { $0.isEmpty ? nil : $0 })
    }

    private func event(subject: Symbol, start: ZoneResolver.Resolved, zone: TimeZone?, _ b: ComponentBuilder) throws -> Event {
        if values != nil { throw b.error("only a report takes values", option: "values") }
        var e = Event(subject: subject, kind: .note, source: ManualEntry.source, start: start.utc, utcOffset: start.offset,
                      note: note.flatMap { $0.isEmpty ? nil : $0 }, flags: start.flags.union(.userEntered))
        switch kind {
        case .report: fatalError("reports are not events")
        case .insulin:
            guard let u = units else { throw b.error("an insulin entry needs its units (e.g. 4.5)", option: "units") }
            guard u.isFinite, u > 0, u <= 1000 else { throw b.error("insulin units must be above 0 (got \(HealthValues.text(u)))", option: "units") }
            e.kind = .insulin
            e.insulin = u
            e.subtype = basal == true ? InsulinKinds.basal : InsulinKinds.bolus
        case .meal:
            guard let c = carbs else { throw b.error("a meal needs its carbohydrates in grams (e.g. 45)", option: "carbs") }
            for (option, v) in [("carbs", c), ("protein", protein ?? 0), ("fat", fat ?? 0)] where !v.isFinite || v < 0 || v > 5000 {
                throw b.error("\(option) must be 0 g or more (got \(HealthValues.text(v)))", option: option)
            }
            e.kind = .meal
            e.carbs = c
            e.protein = protein
            e.fat = fat
            // The seeds' pop-up names the meal: kept in the note, as Nightscout's food notes are.
            if let name, !name.isEmpty { e.note = name }
        case .exercise:
            e.kind = .exercise
            if let name, !name.isEmpty { e.subtype = Symbol(name) }
            if let intensity {
                guard Self.intensities.contains(intensity.lowercased()) else {
                    throw b.error("intensity '\(intensity)' must be light, medium or heavy", option: "intensity")
                }
                e.intensity = Symbol(intensity.lowercased())
            }
            if let minutes {
                guard minutes.isFinite, minutes > 0, minutes <= 7 * 1440 else {
                    throw b.error("minutes must be above 0 (got \(HealthValues.text(minutes)))", option: "minutes")
                }
                e.end = start.utc + Int64((minutes * 60).rounded())
            } else if let end {
                e.end = try ending(end, after: start, zone: zone, b)
            } else {
                throw b.error("an exercise entry needs its minutes (e.g. 45)", option: "minutes")
            }
        case .illness, .stress:
            e.kind = .episode
            e.subtype = Symbol(kind.rawValue)
            if let end {
                e.end = try ending(end, after: start, zone: zone, b)
            } else {
                // Started and not ended yet: it lasts until `healthpipe episode end`.
                e.flags.insert(.openEnded)
            }
        }
        return e
    }

    private func ending(_ text: String, after start: ZoneResolver.Resolved, zone: TimeZone?, _ b: ComponentBuilder) throws -> Int64 {
        let end = try instant(text, option: "end", zone: zone, b)
        guard end.utc >= start.utc else {
            throw b.error("end \(LocalTimeText.wallClock(utc: end.utc, offset: end.offset)) is before the start "
                          + LocalTimeText.wallClock(utc: start.utc, offset: start.offset), option: "end")
        }
        return end.utc
    }

    /// A moment with an offset, or a naive local time in the stage's (or run's) zone.
    private func instant(_ text: String, option: String, zone: TimeZone?, _ b: ComponentBuilder) throws -> ZoneResolver.Resolved {
        let now = Int64(Date().timeIntervalSince1970)
        if let withOffset = LocalTimeText.parse(text, zone: TimeZone(secondsFromGMT: 0)!, now: now), Self.hasOffset(text) {
            return withOffset
        }
        guard let zone else {
            throw b.error("'\(text)' has no offset: give one (2024-03-05T20:00:00+01:00) or a timezone", option: option)
        }
        guard let r = LocalTimeText.parse(text, zone: zone, now: now) else {
            throw b.error("'\(text)' is not a time such as 2024-03-05 20:00, 20:00 or now", option: option)
        }
        return r
    }

    static func hasOffset(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("Z") { return true }
        guard t.count > 16 else { return false }
        let tail = t.suffix(6)
        return tail.first == "+" || tail.first == "-"
    }
}
