import HealthPipeCore

/// ActivitySummary (the day's activity rings) → daily measurements; Me → the subject profile.
extension ExportHandler {
    /// Ring attributes and the metric each becomes (move time was named appleMoveMinutes in older exports).
    static let ringMetrics: [(attribute: String, metric: Symbol, unit: Symbol)] = [
        ("activeEnergyBurned", Symbol("activity_active_energy"), UnitConversion.kcal),
        ("activeEnergyBurnedGoal", Symbol("activity_active_energy_goal"), UnitConversion.kcal),
        ("appleMoveTime", Symbol("activity_move_time"), CanonicalUnits.minutes),
        ("appleMoveTimeGoal", Symbol("activity_move_time_goal"), CanonicalUnits.minutes),
        ("appleMoveMinutes", Symbol("activity_move_time"), CanonicalUnits.minutes),
        ("appleMoveMinutesGoal", Symbol("activity_move_time_goal"), CanonicalUnits.minutes),
        ("appleExerciseTime", Symbol("activity_exercise_time"), CanonicalUnits.minutes),
        ("appleExerciseTimeGoal", Symbol("activity_exercise_time_goal"), CanonicalUnits.minutes),
        ("appleStandHours", Symbol("activity_stand_hours"), Symbol("h")),
        ("appleStandHoursGoal", Symbol("activity_stand_hours_goal"), Symbol("h")),
    ]
    static let activitySource = Symbol("Apple Health")

    /// One measurement per ring value, stamped at the day's local midnight (offset 0: the day is civil).
    /// Stored when a ring value was read, skipped when none was (or the options leave it out); nil
    /// when quarantined (counted there).
    func activitySummary(_ a: Attributes) -> RowTally.Outcome? {
        guard summariesIncluded else { filtered += 1; return .skipped }
        let line = Int64(currentLine())
        var day: Int64?
        var energyScale = 1.0
        for i in 0..<a.count {
            if named(a.name(i), "dateComponents") {
                let parts = a.string(i).split(separator: "-").compactMap { Int($0) }
                if parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) {
                    day = CivilDate.days(year: parts[0], month: parts[1], day: parts[2])
                }
            } else if named(a.name(i), "activeEnergyBurnedUnit") {
                if case .scale(let f) = UnitConversion(appleUnit: a.string(i), metric: "energy").rule { energyScale = f }
            }
        }
        guard let day else {
            quarantine(RowError(file: path, line: line, reason: "ActivitySummary without a readable dateComponents", raw: wholeElement() ?? "<ActivitySummary>",
                                rawLimit: EchoText.elementLimit), slot: ElementTypes.activitySummary)
            return nil
        }
        guard dayIncluded(day * 86_400) else { filtered += 1; return .skipped }
        let before = measurements
        for i in 0..<a.count {
            let name = String(cString: a.name(i))
            guard let ring = Self.ringMetrics.first(where: { $0.attribute == name }), var v = a.number(i) else { continue }
            if ring.unit == UnitConversion.kcal { v *= energyScale }
            add(HealthPipeCore.Measurement(subject: options.subject, metric: ring.metric, source: Self.activitySource,
                                           start: day * 86_400, utcOffset: 0, value: v, unit: ring.unit,
                                           provenance: Provenance(file: file, line: line)))
        }
        return measurements > before ? .stored : .skipped
    }

    func me(_ a: Attributes) {
        var profile = SubjectProfile(subject: options.subject, source: Symbol("apple-health"), attributes: "{}",
                                     provenance: Provenance(file: file, line: Int64(currentLine())))
        json.reset()
        json.beginObject()
        for i in 0..<a.count {
            let key = String(cString: a.name(i)), value = a.string(i)
            json.key(key)
            json.string(value)
            switch key {
            case "HKCharacteristicTypeIdentifierDateOfBirth": profile.dateOfBirth = Self.isoDate(value)
            case "HKCharacteristicTypeIdentifierBiologicalSex": profile.biologicalSex = Self.sex[value]
            case "HKCharacteristicTypeIdentifierBloodType": profile.bloodType = Self.bloodType(value)
            case "HKCharacteristicTypeIdentifierFitzpatrickSkinType":
                let t = value.replacingOccurrences(of: "HKFitzpatrickSkinType", with: "")
                profile.skinType = t.isEmpty || t == "NotSet" ? nil : t
            default: break
            }
        }
        json.endObject()
        profile.attributes = String(decoding: json.bytes, as: UTF8.self)
        add(profile)
    }

    /// The date of birth as `YYYY-MM-DD`: an Arabic-locale export writes it in Arabic-Indic digits
    /// (`٢٠٠٠-٠٢-٠١`), so every decimal digit becomes its ASCII digit; nil when not a date (the text as
    /// written stays in `attributes`).
    static func isoDate(_ v: String) -> String? {
        var out = ""
        for c in v {
            if c == "-" { out.append(c); continue }
            guard c.unicodeScalars.count == 1, let scalar = c.unicodeScalars.first,
                  scalar.properties.numericType == .decimal, let d = c.wholeNumberValue else { return nil }
            out.append(Character(String(d)))
        }
        let parts = out.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.map(\.count) == [4, 2, 2] else { return nil }
        return out
    }

    static let sex = ["HKBiologicalSexMale": "male", "HKBiologicalSexFemale": "female", "HKBiologicalSexOther": "other"]

    /// `HKBloodTypeONegative` → `O-`; nil when not set.
    static func bloodType(_ v: String) -> String? {
        var t = v.replacingOccurrences(of: "HKBloodType", with: "")
        let sign: String
        if t.hasSuffix("Positive") { sign = "+"; t.removeLast(8) }
        else if t.hasSuffix("Negative") { sign = "-"; t.removeLast(8) }
        else { return nil }
        return t + sign
    }
}
