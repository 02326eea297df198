/// What a tap on a marker tells (seed 000/001): a meal's name, carbs, protein and fat; an
/// exercise's name, duration and intensity; an insulin dose's units, time and kind.
extension DayView.Marker {
    public var title: String {
        switch kind {
        case .meal: return name.isEmpty ? "Meal" : name
        case .exercise: return name.isEmpty ? "Exercise" : name
        case .insulin:
            switch insulinType {
            case "basal": return "Basal insulin"
            case "temp_basal": return "Temp basal"
            case "bolus": return "Bolus insulin"
            default: return "Insulin"
            }
        }
    }

    /// The details, one fact per item: ["carbs 45 g", "protein 20 g", "fat 12 g"].
    public var facts: [String] {
        var out: [String] = []
        switch kind {
        case .meal:
            if let c = carbs { out.append("carbs " + Fmt.amount(c, 1) + " g") }
            if let p = protein { out.append("protein " + Fmt.amount(p, 1) + " g") }
            if let f = fat { out.append("fat " + Fmt.amount(f, 1) + " g") }
        case .exercise:
            if durationMinutes > 0 { out.append(Fmt.duration(minutes: durationMinutes)) }
            if !intensity.isEmpty { out.append(intensity + " intensity") }
        case .insulin:
            if let u = insulin { out.append(Fmt.amount(u) + " U") }
            // A basal entry's time span (a temp basal's duration): its rate is not in the chart's records yet.
            if isBasal && durationMinutes > 0 { out.append("for " + Fmt.duration(minutes: durationMinutes)) }
        }
        return out
    }

    /// "Breakfast at 07:32: carbs 45 g, protein 20 g, fat 12 g".
    public var detail: String {
        let f = facts
        return title + " at " + clock + (f.isEmpty ? "" : ": " + f.joined(separator: ", "))
    }

    /// The short text under a marker: "45 g", "30min", "5 U".
    public var shortLabel: String {
        switch kind {
        case .meal: return carbs.map { Fmt.amount($0, 0) + " g" } ?? ""
        case .exercise: return durationMinutes > 0 ? Fmt.duration(minutes: durationMinutes) : ""
        case .insulin: return insulin.map { Fmt.amount($0, 1) + " U" } ?? ""
        }
    }
}
