import ArgumentParser
import Foundation
import HealthPipeCore
import SQLiteStore

/// A range of local days given as `--from` / `--to` (default: everything the log holds).
struct DayRange: ParsableArguments {
    /// Every local day a store can hold (years 0 … 4700).
    static let everything: (first: Int64, last: Int64) = (-720_000, 1_000_000)

    @Option(help: "First local day (YYYY-MM-DD, today, yesterday).") var from: String?
    @Option(help: "Last local day.") var to: String?

    func resolve(_ log: LogOptions, span: (first: Int64, last: Int64)?) throws -> ClosedRange<Int64>? {
        let now = Int64(Date().timeIntervalSince1970)
        let first = try from.map { try log.day($0, flag: "--from", now: now) } ?? span?.first
        let last = try to.map { try log.day($0, flag: "--to", now: now) } ?? span?.last
        guard let first, let last else { return nil }
        guard first <= last else { throw usage("--from \(from ?? "") is after --to \(to ?? "")") }
        return first...last
    }
}

struct ReportsList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List reports, oldest first, with filters (e.g. only the values of importance 5).",
        discussion: "Filters select values; a report is listed with the values that pass them, and left out when none does.")

    @OptionGroup var log: LogOptions
    @OptionGroup var range: DayRange
    @Option(help: "Only values of this importance (1–5).", transform: NumberRule.importance.flag) var importance: NumberFlag?
    @Option(name: .customLong("min-importance"), help: "Only values of at least this importance.", transform: NumberRule.importance.flag) var minImportance: NumberFlag?
    @Option(help: "Only this value (name or alias, e.g. temperature).") var metric: String?
    @Flag(help: "One JSON object per report and line.") var json = false

    func run() throws {
        if importance != nil && minImportance != nil { throw usage("--importance and --min-importance: give one") }
        let metricName = try metric.map { m -> String in
            guard let n = HealthValues.metricName(m) else { throw usage("--metric \(m): not a health value name") }
            return n
        }
        let q = try log.queries()
        let who = try log.who  // resolved once: it reads the store
        guard let days = try range.resolve(log, span: try q.reportSpan(subject: who)) else { return }
        var lines = ""
        var w = JSONWriter(capacity: 1024)
        for var r in try q.reports(subject: who, fromDay: days.lowerBound, toDay: days.upperBound) {
            r.values = r.values.filter { v in
                (importance.map { v.importance == $0.int } ?? true) && (minImportance.map { v.importance >= $0.int } ?? true)
                    && (metricName.map { v.metric.text == $0 } ?? true)
            }
            guard !r.values.isEmpty else { continue }
            let time = LocalTimeText.wallClock(utc: r.start, offset: r.utcOffset)
            if json {
                w.reset()
                w.beginObject()
                w.key("id"); w.string(r.id)
                w.key("subject"); w.string(who)
                w.key("time"); w.string(LocalTimeText.format(utc: r.start, offset: r.utcOffset))
                w.key("date"); w.string(CivilDate.isoDate(fromDays: r.localDay))
                w.key("values"); w.beginArray()
                for v in r.values {
                    w.beginObject()
                    w.key("metric"); w.string(v.metric.text)
                    w.key("value"); w.double(v.value)
                    w.key("unit"); w.string(v.unit.text)
                    w.key("importance"); w.int(v.importance)
                    w.endObject()
                }
                w.endArray()
                w.key("note"); w.string(r.note)
                w.endObject()
                w.newline()
                lines += String(decoding: w.bytes, as: UTF8.self)
            } else {
                lines += "\(time)  \(r.id)  " + r.values.map(ReportText.value).joined(separator: ", ")
                    + (r.note.map { "  — \($0)" } ?? "") + "\n"
            }
        }
        print(lines, terminator: "")
    }
}

struct ReportsSummary: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "The daily summary reports: per day, how many reports, and per value their average, n, min, max and highest importance.")

    @OptionGroup var log: LogOptions
    @OptionGroup var range: DayRange
    @Flag(help: "One JSON object per day and line.") var json = false

    func run() throws {
        let q = try log.queries()
        let who = try log.who  // resolved once: it reads the store
        guard let days = try range.resolve(log, span: try q.reportSpan(subject: who)) else { return }
        let rows = try q.reportDays(subject: who, fromDay: days.lowerBound, toDay: days.upperBound)
        var out = ""
        var w = JSONWriter(capacity: 1024)
        var i = 0
        while i < rows.count {
            let day = rows[i].day
            var j = i
            while j < rows.count, rows[j].day == day { j += 1 }
            let group = rows[i..<j]
            if json {
                w.reset()
                w.beginObject()
                w.key("date"); w.string(CivilDate.isoDate(fromDays: day))
                w.key("subject"); w.string(who)
                w.key("reports"); w.int(group.first!.reports)
                w.key("values"); w.beginArray()
                for r in group {
                    w.beginObject()
                    w.key("metric"); w.string(r.metric.text)
                    w.key("unit"); w.string(r.unit.text)
                    w.key("mean"); w.double(r.mean)
                    w.key("n"); w.int(r.count)
                    w.key("min"); w.double(r.min)
                    w.key("max"); w.double(r.max)
                    w.key("max_importance"); w.int(r.maxImportance)
                    w.endObject()
                }
                w.endArray()
                w.endObject()
                w.newline()
                out += String(decoding: w.bytes, as: UTF8.self)
            } else {
                let n = group.first!.reports
                out += "\(CivilDate.isoDate(fromDays: day))  \(n) report\(n == 1 ? "" : "s")\n"
                for r in group {
                    let unit = r.unit.text.isEmpty ? "" : " " + r.unit.text
                    out += "    \(r.metric.text.padding(toLength: 26, withPad: " ", startingAt: 0)) average \(Self.number(r.mean))\(unit)"
                        + "  (n \(r.count), \(Self.number(r.min))–\(Self.number(r.max)), importance up to \(r.maxImportance))\n"
                }
            }
            i = j
        }
        print(out, terminator: "")
    }

    static func number(_ v: Double) -> String { HealthValues.text((v * 100).rounded() / 100) }
}
