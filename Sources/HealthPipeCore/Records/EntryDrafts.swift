/// A health report or manual entry as typed or read, before it is checked: every source of them
/// (the command line, a pipeline, a CSV or JSON file) builds one of these, so all refuse the same
/// things in the same words, naming the field each problem is in.
public struct ReportDraft: Sendable {
    public var id: String?
    public var subject: Symbol
    public var start: Int64
    public var utcOffset: Int32
    public var values: [HealthReport.Value] = []
    public var note: String?

    public init(id: String?, subject: Symbol, start: Int64, utcOffset: Int32, values: [HealthReport.Value] = [], note: String? = nil) {
        self.id = id
        self.subject = subject
        self.start = start
        self.utcOffset = utcOffset
        self.values = values
        self.note = note
    }

    /// Adds a value; the same health value twice in one report is refused.
    public mutating func add(_ v: HealthReport.Value) -> EntryProblem? {
        if values.contains(where: { $0.metric == v.metric }) {
            return EntryProblem("\(v.metric.text) is given twice in one report", field: "values")
        }
        values.append(v)
        return nil
    }

    public func report() -> Result<HealthReport, EntryProblem> {
        if let id, !EntryIDs.isValid(id) { return .failure(EntryIDs.invalid(id)) }
        guard values.count >= HealthReport.minimumValues else {
            return .failure(EntryProblem("a report needs at least \(HealthReport.minimumValues) values (got \(values.count)), "
                                         + "e.g. body_temperature=37.8:4 and blood_pressure_systolic=135:3", field: "values"))
        }
        return .success(HealthReport(id: id ?? EntryIDs.make(.report, utc: start, offset: utcOffset), subject: subject, start: start,
                                     utcOffset: utcOffset, values: values, note: note.flatMap { $0.isEmpty ? nil : $0 }))
    }
}

/// An insulin dose, meal, exercise or illness/stress episode as typed or read.
public struct EntryDraft: Sendable {
    public var kind: EntryKind
    public var id: String?
    public var subject: Symbol
    public var start: Int64
    public var utcOffset: Int32
    public var timeFlags: RecordFlags = []
    public var end: Int64?
    public var units: Double?
    public var basal = false
    public var carbs: Double?
    public var protein: Double?
    public var fat: Double?
    public var name: String?
    public var minutes: Double?
    public var intensity: String?
    public var note: String?
    /// An episode without an end is open until ended (typed), or a marker lasting `daily`'s
    /// `episode_length` (read from a file, like a Clarity Health row).
    public var openWithoutEnd = true

    public init(kind: EntryKind, id: String?, subject: Symbol, start: Int64, utcOffset: Int32) {
        self.kind = kind
        self.id = id
        self.subject = subject
        self.start = start
        self.utcOffset = utcOffset
    }

    public static let intensities = ["light", "medium", "heavy"]

    public func entry() -> Result<ManualEntry, EntryProblem> {
        if let id, !EntryIDs.isValid(id) { return .failure(EntryIDs.invalid(id)) }
        var e = Event(subject: subject, kind: .note, source: ManualEntry.source, start: start, utcOffset: utcOffset,
                      note: note.flatMap { $0.isEmpty ? nil : $0 }, flags: timeFlags.union(.userEntered))
        func number(_ v: Double) -> String { HealthValues.text(v) }
        if let end, end < start {
            return .failure(EntryProblem("the end is before the start", field: "end"))
        }
        switch kind {
        case .report: return .failure(EntryProblem("a report is not an entry", field: "kind"))
        case .insulin:
            guard let u = units else { return .failure(EntryProblem("an insulin entry needs its units (e.g. 4.5)", field: "units")) }
            guard u.isFinite, u > 0, u <= 1000 else { return .failure(EntryProblem("insulin units must be above 0 (got \(number(u)))", field: "units")) }
            e.kind = .insulin
            e.insulin = u
            e.subtype = basal ? InsulinKinds.basal : InsulinKinds.bolus
        case .meal:
            guard let c = carbs else { return .failure(EntryProblem("a meal needs its carbohydrates in grams (e.g. 45)", field: "carbs")) }
            for (field, v) in [("carbs", c), ("protein", protein ?? 0), ("fat", fat ?? 0)] where !v.isFinite || v < 0 || v > 5000 {
                return .failure(EntryProblem("\(field) must be 0 g or more (got \(number(v)))", field: field))
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
                    return .failure(EntryProblem("intensity '\(intensity)' must be light, medium or heavy", field: "intensity"))
                }
                e.intensity = Symbol(intensity.lowercased())
            }
            if let minutes {
                guard minutes.isFinite, minutes > 0, minutes <= 7 * 1440 else {
                    return .failure(EntryProblem("minutes must be above 0 (got \(number(minutes)))", field: "minutes"))
                }
                e.end = start + Int64((minutes * 60).rounded())
            } else if let end {
                e.end = end
            } else {
                return .failure(EntryProblem("an exercise entry needs its minutes (e.g. 45)", field: "minutes"))
            }
        case .illness, .stress:
            e.kind = .episode
            e.subtype = Symbol(kind.rawValue)
            if let end { e.end = end } else if openWithoutEnd { e.flags.insert(.openEnded) }
        }
        return .success(ManualEntry(id: id ?? EntryIDs.make(kind, utc: start, offset: utcOffset), event: e))
    }
}
