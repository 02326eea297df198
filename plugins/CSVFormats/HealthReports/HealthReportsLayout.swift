import HealthPipeCore

/// The columns of a health-reports CSV, found from its header (any order, any case):
/// - long: `time, metric, value, unit, importance, note` (+ `id`, `subject`, `end`), one value per
///   row; the rows of one time (or one `id`) are one report. Rows whose metric is an entry kind
///   (`insulin`, `basal`, `carbs`, `exercise`, `illness`, `stress`) are manual entries.
/// - wide: `time`, one column per value — `body_temperature`, `weight (kg)`, `temperature [degF]` —
///   each with an importance column (`body_temperature_importance`, `weight importance`) or one
///   shared `importance` column, and `note` (+ `id`, `subject`); one report per row.
struct HealthReportsLayout {
    enum Shape { case long, wide }
    struct WideValue { var column: Int; var metric: String; var unit: String; var importance: Int }

    var shape: Shape
    var time: Int
    var date: Int?
    var id: Int?, subject: Int?, note: Int?, end: Int?
    // long
    var metric = -1, value = -1, unit: Int?, importance: Int?
    // wide
    var values: [WideValue] = []

    static let timeNames = ["time", "timestamp", "datetime", "date_time", "date time", "at", "when", "start"]
    static let reserved: Set<String> = ["id", "subject", "note", "notes", "end", "importance", "date", "unit"]

    /// Nil when the header is not a health-reports header; a message when it is one with a mistake.
    static func read(_ header: [String]) -> Result<HealthReportsLayout, EntryProblem>? {
        let cells = header.map(HeaderText.normalize)
        func find(_ names: [String]) -> Int? { cells.firstIndex { names.contains($0) } }
        let date = find(["date", "day"])
        guard let time = find(timeNames) ?? date else { return nil }
        var l = HealthReportsLayout(shape: .long, time: time, date: date == time ? nil : date)
        l.id = find(["id"])
        l.subject = find(["subject"])
        l.note = find(["note", "notes", "comment"])
        l.end = find(["end"])
        l.importance = find(["importance"])
        if let metric = find(["metric", "name", "parameter"]), let value = find(["value"]) {
            l.metric = metric
            l.value = value
            l.unit = find(["unit", "units"])
            return l.importance == nil ? .failure(EntryProblem("the header has no 'importance' column", field: "importance")) : .success(l)
        }
        l.shape = .wide
        let used = Set([time, l.date, l.id, l.subject, l.note, l.end, l.importance].compactMap { $0 })
        var importanceOf: [String: Int] = [:]
        for (i, c) in cells.enumerated() where !used.contains(i) {
            for suffix in ["_importance", " importance"] where c.hasSuffix(suffix) { importanceOf[String(c.dropLast(suffix.count))] = i }
        }
        guard !importanceOf.isEmpty || l.importance != nil else { return nil }
        for (i, c) in cells.enumerated() where !used.contains(i) && !importanceOf.values.contains(i) && !c.isEmpty {
            let (name, unit) = splitUnit(c)
            guard let metric = HealthValues.metricName(name.replacingOccurrences(of: " ", with: "_")) else {
                return .failure(EntryProblem("column '\(header[i])' is not a health value name", field: header[i]))
            }
            guard let importance = importanceOf[name] ?? l.importance else {
                return .failure(EntryProblem("column '\(header[i])' has no importance column ('\(name)_importance' or 'importance')",
                                             field: header[i]))
            }
            l.values.append(WideValue(column: i, metric: metric, unit: unit, importance: importance))
        }
        return l.values.isEmpty ? nil : .success(l)
    }

    /// `weight (kg)` / `temperature [degF]` → (name, unit).
    static func splitUnit(_ cell: String) -> (String, String) {
        for (open, close) in [("(", ")"), ("[", "]")] {
            if let o = cell.lastIndex(of: Character(open)), cell.hasSuffix(close) {
                let unit = cell[cell.index(after: o)..<cell.index(before: cell.endIndex)]
                return (cell[..<o].trimmingCharacters(in: .whitespaces), unit.trimmingCharacters(in: .whitespaces))
            }
        }
        return (cell, "")
    }

    /// A content score for detection (the first line that reads as a header).
    static func detectScore(_ sniff: FileSniff) -> Int {
        for line in sniff.lines(5) where !line.allSatisfy(\.isWhitespace) {
            let delimiter = HeaderText.sniffDelimiter(line)
            let cells = line.split(separator: Character(Unicode.Scalar(delimiter)), omittingEmptySubsequences: false).map { String($0) }
            guard case .success(let l)? = read(cells) else { return 0 }
            return l.shape == .long ? 85 : 80
        }
        return 0
    }
}

import Foundation
