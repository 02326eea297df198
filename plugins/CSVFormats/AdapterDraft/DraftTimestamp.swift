import HealthPipeCore

/// The timestamp layout of an unknown CSV, found by trying the patterns exports use on a column's
/// sample values (every sample must parse): one cell, or a date cell and a time cell.
struct DraftTimestamp {
    enum Layout: Equatable {
        case single(column: Int, format: String)
        case split(date: Int, dateFormat: String, time: Int, timeFormat: String)
    }

    /// Full date-times, most specific first; day-first before month-first, so an ambiguous sample
    /// (every day ≤ 12) takes the order most of the world writes, and the draft says to check it.
    static let dateTimes = [
        "%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%M%z", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M",
        "%Y.%m.%d %H:%M:%S", "%Y.%m.%d %H:%M", "%d.%m.%Y %H:%M:%S", "%d.%m.%Y %H:%M", "%d.%m.%y %H:%M", "%d/%m/%Y %H:%M:%S",
        "%d/%m/%Y %H:%M", "%m/%d/%Y %I:%M:%S %p", "%m/%d/%Y %I:%M %p", "%m/%d/%Y %H:%M:%S", "%m/%d/%Y %H:%M",
        "%d-%m-%Y %H:%M:%S", "%d-%m-%Y %H:%M", "%m-%d-%Y %I:%M %p", "%m-%d-%Y %H:%M", "%d/%m/%y %H:%M", "%m/%d/%y %I:%M %p",
    ]
    static let dates = ["%Y-%m-%d", "%Y/%m/%d", "%Y.%m.%d", "%d.%m.%Y", "%d.%m.%y", "%d/%m/%Y", "%m/%d/%Y", "%d-%m-%Y", "%m-%d-%Y",
                        "%d/%m/%y", "%m/%d/%y"]
    static let times = ["%H:%M:%S", "%H:%M", "%I:%M:%S %p", "%I:%M %p"]

    /// True when the chosen order of day and month could not be told from the samples.
    var ambiguousDayMonth = false
    var layout: Layout
    /// True when the times carry an offset (no zone needed).
    var hasOffset: Bool

    /// The first column (time words first) whose samples all parse as a date-time; else a date column
    /// followed by a time column; else an epoch column. Nil when no column holds times.
    static func find(header: [String], samples: [[String]]) -> DraftTimestamp? {
        let order = header.indices.sorted { (DraftVocabulary.has(header[$0], DraftVocabulary.time) ? 0 : 1, $0)
            < (DraftVocabulary.has(header[$1], DraftVocabulary.time) ? 0 : 1, $1) }
        for c in order {
            let values = column(c, samples)
            guard !values.isEmpty else { continue }
            if let f = first(dateTimes, parsing: values) {
                return DraftTimestamp(ambiguousDayMonth: ambiguous(f, dateTimes, values), layout: .single(column: c, format: f),
                                      hasOffset: f.hasSuffix("%z"))
            }
        }
        for d in order {
            let dateValues = column(d, samples)
            guard !dateValues.isEmpty, let df = first(dates, parsing: dateValues) else { continue }
            for t in header.indices where t != d {
                let timeValues = column(t, samples)
                guard timeValues.count == dateValues.count,
                      let tf = times.first(where: { tf in
                          let p = try? TimestampPattern("%Y-%m-%d " + tf)
                          return timeValues.allSatisfy { p?.parse("2000-01-01 " + $0) != nil }
                      }) else { continue }
                return DraftTimestamp(ambiguousDayMonth: ambiguous(df, dates, dateValues),
                                      layout: .split(date: d, dateFormat: df, time: t, timeFormat: tf), hasOffset: false)
            }
        }
        for c in order where DraftVocabulary.has(header[c], DraftVocabulary.time) {
            let values = column(c, samples).compactMap(Double.init)
            guard !values.isEmpty, values.count == column(c, samples).count else { continue }
            if values.allSatisfy({ (9.0e8...4.2e9).contains($0) }) { return DraftTimestamp(layout: .single(column: c, format: "epoch"), hasOffset: true) }
            if values.allSatisfy({ (9.0e11...4.2e12).contains($0) }) { return DraftTimestamp(layout: .single(column: c, format: "epoch_ms"), hasOffset: true) }
        }
        return nil
    }

    static func column(_ c: Int, _ samples: [[String]]) -> [String] {
        samples.compactMap { c < $0.count ? $0[c].trimmingCharacters(in: .whitespaces) : nil }.filter { !$0.isEmpty }
    }

    private static func first(_ formats: [String], parsing values: [String]) -> String? {
        formats.first { f in
            guard let p = try? TimestampPattern(f) else { return false }
            return values.allSatisfy { p.parse($0) != nil }
        }
    }

    /// True when the same values also parse with day and month swapped.
    private static func ambiguous(_ chosen: String, _ formats: [String], _ values: [String]) -> Bool {
        guard chosen.contains("%d"), chosen.contains("%m") else { return false }
        let swapped = chosen.replacingOccurrences(of: "%d", with: "%#").replacingOccurrences(of: "%m", with: "%d")
            .replacingOccurrences(of: "%#", with: "%m")
        guard swapped != chosen, let p = try? TimestampPattern(swapped) else { return false }
        return values.allSatisfy { p.parse($0) != nil }
    }
}
