import HealthPipeCore

/// The `reports` step: keeps every report it receives (each id once, the last arrival winning, and
/// one report per subject and instant, as the store keeps them), then emits the daily summary
/// reports and the report alerts of each subject. Reports are few (a handful a day), so they are
/// held in memory; readings and events are not looked at.
public final class ReportsTransform: Transform {
    public let settings: ReportAlertSettings
    private struct Key: Hashable { var subject: Symbol; var id: String }
    private var latest: [Key: (arrival: Int, report: HealthReport)] = [:]
    private var arrivals = 0

    public init(settings: ReportAlertSettings) { self.settings = settings }

    public func process(_ batch: RecordBatch, context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        for r in batch.reports {
            arrivals += 1
            latest[Key(subject: r.subject, id: r.id)] = (arrivals, r)
        }
    }

    public func finish(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var bySubject: [Symbol: [(arrival: Int, report: HealthReport)]] = [:]
        for (key, entry) in latest { bySubject[key.subject, default: []].append(entry) }
        latest.removeAll()
        for subject in bySubject.keys.sorted(by: { $0.text < $1.text }) {
            let reports = Self.onePerInstant(bySubject[subject]!)
            var out = RecordBatch()
            out.reportDays = ReportDaySummary.days(of: reports)
            if let minute = settings.reminderMinute { out.alerts += ReminderDays.alerts(reports, minute: minute) }
            for t in settings.thresholds { out.alerts += ThresholdWatch.alerts(reports, threshold: t) }
            if !out.isEmpty { try emit(out) }
        }
    }

    /// Time order; of two reports at one instant the later arrival stays (the store's rule).
    static func onePerInstant(_ list: [(arrival: Int, report: HealthReport)]) -> [HealthReport] {
        var out: [HealthReport] = []
        for e in list.sorted(by: { ($0.report.start, $0.arrival) < ($1.report.start, $1.arrival) }) {
            if let last = out.last, last.start == e.report.start { out[out.count - 1] = e.report } else { out.append(e.report) }
        }
        return out
    }
}

/// The seed's summary report: per local day and value, the average of that day's reports.
enum ReportDaySummary {
    static func days(of reports: [HealthReport]) -> [ReportDay] {
        var out: [ReportDay] = []
        var i = 0
        while i < reports.count {
            let day = reports[i].localDay
            var j = i
            while j < reports.count, reports[j].localDay == day { j += 1 }
            let dayReports = reports[i..<j]
            var byMetric: [Symbol: ReportDay] = [:]
            for r in dayReports {
                for v in r.values {
                    if var d = byMetric[v.metric] {
                        d.count += 1
                        d.mean += (v.value - d.mean) / Double(d.count)
                        d.min = Swift.min(d.min, v.value)
                        d.max = Swift.max(d.max, v.value)
                        d.maxImportance = Swift.max(d.maxImportance, v.importance)
                        byMetric[v.metric] = d
                    } else {
                        byMetric[v.metric] = ReportDay(subject: r.subject, day: day, metric: v.metric, unit: v.unit,
                                                       reports: dayReports.count, count: 1, mean: v.value, min: v.value,
                                                       max: v.value, maxImportance: v.importance)
                    }
                }
            }
            out += byMetric.values.sorted { $0.metric.text < $1.metric.text }
            i = j
        }
        return out
    }
}
