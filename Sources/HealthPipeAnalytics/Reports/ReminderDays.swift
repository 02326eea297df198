import HealthPipeCore

/// Reminder alerts from the stored reports alone: for every local day from the subject's first
/// report day to its last, a day without a report by the reminder time has an alert from that
/// time to its first report (or to the end of the day when it had none). What is due today, before
/// any report exists, depends on the clock: `healthpipe alerts check` decides that.
enum ReminderDays {
    static let metric = Symbol("report")

    static func alerts(_ reports: [HealthReport], minute: Int) -> [Alert] {
        guard let first = reports.first, let last = reports.last else { return [] }
        var out: [Alert] = []
        var i = 0
        var offset = first.utcOffset
        for day in first.localDay...last.localDay {
            var count = 0, firstOfDay: HealthReport?
            while i < reports.count, reports[i].localDay == day {
                if firstOfDay == nil { firstOfDay = reports[i] }
                count += 1
                i += 1
            }
            if let f = firstOfDay { offset = f.utcOffset }
            let dueLocal = day * 86_400 + Int64(minute) * 60
            if let f = firstOfDay, f.start + Int64(f.utcOffset) <= dueLocal { continue }
            let start = dueLocal - Int64(offset)
            let end = firstOfDay?.start ?? ((day + 1) * 86_400 - Int64(offset))
            out.append(Alert(subject: first.subject, metric: metric, kind: .reminder, start: start, end: max(start, end),
                             utcOffset: offset, value: Double(count), threshold: Double(minute)))
        }
        return out
    }
}
