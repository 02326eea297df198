import HealthPipeCore

/// Threshold alerts (seed 004 §1.2): at each report holding the watched value with enough
/// importance, the average of such values over the period ending there is compared with the
/// limit. Consecutive crossings are one alert (start, end, the most extreme average): a report
/// whose average is back within the limit ends it, and so does a whole period without reports.
enum ThresholdWatch {
    static func alerts(_ reports: [HealthReport], threshold t: ReportAlertSettings.Threshold) -> [Alert] {
        var points: [(start: Int64, offset: Int32, value: Double)] = []
        for r in reports {
            for v in r.values where v.metric == t.metric && v.importance >= t.minImportance {
                points.append((r.start, r.utcOffset, v.value))
            }
        }
        guard let subject = reports.first?.subject else { return [] }
        let period = Int64(t.days) * 86_400
        var out: [Alert] = []
        var open: Alert?
        var lo = 0
        for (i, p) in points.enumerated() {
            while points[lo].start <= p.start - period { lo += 1 }
            // Summed afresh in time order (a window holds a few dozen values): every path that sees
            // the same reports gets the same bits.
            var sum = 0.0
            for j in lo...i { sum += points[j].value }
            let average = sum / Double(i - lo + 1)
            let crossed = t.above ? average > t.limit : average < t.limit
            guard crossed else {
                if let a = open { out.append(a) }
                open = nil
                continue
            }
            if var a = open, p.start - a.end <= period {
                a.end = p.start
                a.value = t.above ? max(a.value, average) : min(a.value, average)
                open = a
            } else {
                if let a = open { out.append(a) }
                open = Alert(subject: subject, metric: t.metric, kind: t.kind, start: p.start, end: p.start, utcOffset: p.offset,
                             value: average, threshold: t.limit)
            }
        }
        if let a = open { out.append(a) }
        return out
    }
}
