import HealthPipeCore

/// Fitbit's sleep levels in the names Apple Health's sleep analysis is stored under, so a night looks
/// alike from either vendor: `sleep_analysis.<state>` rows timed start–end, value = minutes in it.
/// Classic logs' `restless` has no Apple state: it is neither asleep nor awake in Fitbit's own totals
/// (minutesAsleep counts `asleep` only), so it keeps its own name outside `asleep_*`.
enum FitbitSleepStages {
    static let inBed = Symbol("sleep_analysis.in_bed")

    /// The stored metric of a level (`unknown`: not stored), nil for a level Fitbit does not write.
    static func metric(_ level: UnsafeRawBufferPointer) -> Symbol? {
        switch String(decoding: level, as: UTF8.self) {
        case "wake", "awake": return awake
        case "light": return light
        case "deep": return deep
        case "rem": return rem
        case "asleep": return asleep
        case "restless": return restless
        case "unknown": return unknown
        default: return nil
        }
    }

    static let awake = Symbol("sleep_analysis.awake"), light = Symbol("sleep_analysis.asleep_core")
    static let deep = Symbol("sleep_analysis.asleep_deep"), rem = Symbol("sleep_analysis.asleep_rem")
    static let asleep = Symbol("sleep_analysis.asleep_unspecified"), restless = Symbol("sleep_analysis.restless")
    /// Fitbit's filler where it has no stage: counted by the source, never stored.
    static let unknown = Symbol("sleep_analysis.unknown")

    /// A stage span in local seconds.
    struct Span { var start: Int64; var end: Int64; var metric: Symbol }

    /// The night's spans without overlap: `shortData` holds short wakes (≤ 3 min) lying inside the
    /// `data` spans; each is cut out of the span it interrupts and kept as an awake span — what
    /// Fitbit's own `levels.summary` minutes count (verified on the real file, docs/formats.md).
    static func flatten(data: [Span], short: [Span]) -> [Span] {
        guard !short.isEmpty else { return data }
        let cuts = short.sorted { $0.start < $1.start }
        var out: [Span] = []
        out.reserveCapacity(data.count + 2 * cuts.count)
        for span in data {
            var from = span.start
            for c in cuts where c.end > from && c.start < span.end {
                if c.start > from { out.append(Span(start: from, end: c.start, metric: span.metric)) }
                from = max(from, c.end)
            }
            if from < span.end { out.append(Span(start: from, end: span.end, metric: span.metric)) }
        }
        out.append(contentsOf: cuts)
        return out.sorted { $0.start < $1.start }
    }
}
