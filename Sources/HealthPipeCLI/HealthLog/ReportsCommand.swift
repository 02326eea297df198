import ArgumentParser
import Foundation
import HealthLog
import HealthPipeCore
import SQLiteStore

/// `healthpipe reports`: the seed-004 health reports — add, edit, delete, list, daily summary.
struct ReportsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reports",
        abstract: "Health reports: two or more values (each with an importance 1–5) and a note, by id.",
        discussion: """
        A value is metric=number[unit]:importance, e.g. body_temperature=37.8:4, temperature=100.4degF:4,
        systolic=135:3, weight=72.5kg:2, glucose=6.1mmol/L:3, pain=4:5. Units are converted to the metric's
        canonical unit (docs/reports.md lists them). Each report's values also count as readings of their metric.
        """,
        subcommands: [ReportsAdd.self, ReportsEdit.self, ReportsDelete.self, ReportsList.self, ReportsSummary.self])
}

struct ReportsAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a report (idempotent: the same report twice is stored once).")

    @OptionGroup var log: LogOptions
    @Option(name: .customLong("value"), help: "metric=number[unit]:importance (at least two).") var values: [String] = []
    @Option(help: "Free text.") var note: String?
    @Option(help: "When: now (default), 20:00, 2024-03-05 20:00, or with an offset.") var at: String = "now"
    @Option(help: "The report's id: a report with this id is replaced (default: its local time, e.g. 20240305-2000).")
    var id: String?

    func run() throws {
        let start = try log.time(at, flag: "--at", now: nowToTheMinute)
        let reportID = id ?? EntryIDs.make(.report, utc: start.utc, offset: start.offset)
        var entry = EntryRun(command: "healthpipe reports add")
        entry.set("kind", "report", flag: "reports add")
        entry.set("id", reportID, flag: "--id")
        entry.at("at", start, flag: "--at")
        entry.set("values", values, flag: "--value")
        entry.set("note", note, flag: "--note")
        try entry.run(log, done: "report \(reportID) stored: \(LocalTimeText.wallClock(utc: start.utc, offset: start.offset)), \(values.count) values") { batch in
            guard let r = batch.reports.first else { return }
            try ReportChecks.check(r, replacing: id != nil, log: log, command: entry.command)
        }
    }
}

/// What a typed report must not do to reports already stored.
enum ReportChecks {
    /// Another id at the same instant is never replaced by accident; without `--id`, a report of the
    /// same time with other values is not either (the same report typed twice is fine).
    static func check(_ r: HealthReport, replacing: Bool, log: LogOptions, command: String) throws {
        guard FileManager.default.fileExists(atPath: log.dbPath) else { return }
        let q = try log.queries()
        let when = LocalTimeText.wallClock(utc: r.start, offset: r.utcOffset)
        if let other = try q.reportID(subject: log.who, at: r.start), other != r.id {
            throw refusal(command, "--at: report '\(other)' is already stored at \(when); change it with `healthpipe reports edit \(other)`")
        }
        if !replacing, let stored = try q.report(subject: log.who, id: r.id), !same(stored, r) {
            throw refusal(command, "a report at \(when) is already stored with other values (id \(r.id)): "
                          + "`healthpipe reports edit \(r.id)` changes it, --id \(r.id) replaces it")
        }
    }

    static func same(_ stored: HealthLogQueries.StoredReport, _ r: HealthReport) -> Bool {
        func text(_ v: HealthReport.Value) -> String { "\(v.metric.text)=\(v.value)\(v.unit.text):\(v.importance)" }
        return stored.start == r.start && stored.values.map(text).sorted() == r.values.map(text).sorted() && stored.note == r.note
    }
}

struct ReportsEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a report: add or replace values, remove values, change the note or time.")

    @OptionGroup var log: LogOptions
    @Argument(help: "The report's id (see `healthpipe reports list`).") var reportID: String
    @Option(name: .customLong("value"), help: "metric=number[unit]:importance: replaces that metric's value, or adds it.")
    var values: [String] = []
    @Option(name: .customLong("remove"), help: "A metric to take out of the report.") var removed: [String] = []
    @Option(help: "New note text.") var note: String?
    @Flag(name: .customLong("clear-note"), help: "Remove the note.") var clearNote = false
    @Option(help: "New time.") var at: String?

    func run() throws {
        // Read, then let the read-only connection go before writing (its close must not be the last).
        guard let stored = try log.queries().report(subject: log.who, id: reportID) else { throw missing("report", reportID, subject: try log.who) }
        var byMetric = stored.values.map { (metric: $0.metric.text, text: ReportText.spec($0)) }
        for m in removed {
            guard let name = HealthValues.metricName(m), byMetric.contains(where: { $0.metric == name }) else {
                throw usage("--remove \(m): report \(reportID) has no such value (it has \(byMetric.map(\.metric).joined(separator: ", ")))")
            }
            byMetric.removeAll { $0.metric == name }
        }
        for v in values {
            let name = v.split(separator: "=", maxSplits: 1).first.map(String.init).flatMap(HealthValues.metricName) ?? v
            if let i = byMetric.firstIndex(where: { $0.metric == name }) { byMetric[i].text = v } else { byMetric.append((name, v)) }
        }
        let start = try at.map { try log.time($0, flag: "--at", now: nowToTheMinute) }
            ?? ZoneResolver.Resolved(utc: stored.start, offset: stored.utcOffset, flags: [])
        var entry = EntryRun(command: "healthpipe reports edit")
        entry.set("kind", "report", flag: "reports edit")
        entry.set("id", reportID, flag: reportID)
        entry.at("at", start, flag: "--at")
        entry.set("values", byMetric.map(\.text), flag: "--value")
        entry.set("note", clearNote ? nil : (note ?? stored.note), flag: "--note")
        try entry.run(log, done: "report \(reportID) changed") { batch in
            guard let r = batch.reports.first else { return }
            try ReportChecks.check(r, replacing: true, log: log, command: entry.command)
        }
    }
}

struct ReportsDelete: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a report and its readings.")

    @OptionGroup var log: LogOptions
    @Argument(help: "The report's id.") var reportID: String

    func run() throws {
        try log.delete("report", id: reportID, with: HealthLogEdits.deleteReport)
    }
}

/// How reports are written back as typed values, and compared with typed ones.
package enum ReportText {
    /// `body_temperature=37.8degC:4`: reads back to the same canonical value.
    static func spec(_ v: HealthReport.Value) -> String {
        "\(v.metric.text)=\(HealthValues.text(v.value))\(v.unit.text):\(v.importance)"
    }

    /// `body_temperature 37.8 degC (4)`.
    package static func value(_ v: HealthReport.Value) -> String {
        let unit = v.unit.isEmpty ? "" : " " + v.unit.text
        return "\(v.metric.text) \(HealthValues.text((v.value * 100).rounded() / 100))\(unit) (\(v.importance))"
    }
}
