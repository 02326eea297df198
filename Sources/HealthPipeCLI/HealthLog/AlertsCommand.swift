import ArgumentParser
import BuiltinPlugins
import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeStore
import SQLiteStore

/// `healthpipe alerts`: the seed-004 notifications — check what is due, postpone the reminder, list.
struct AlertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts", abstract: "Health-report alerts: the daily reminder and thresholds on averages (settings.yml `reports:`).",
        discussion: """
        Set them with `alerts set` (only the report alerts are recomputed):

          healthpipe alerts set --db DB --reminder 20:00 --threshold "body_temperature above 37.5 days=7 importance=4"

        or with a settings file, `healthpipe reaggregate --db DB --config settings.yml`:

          reports:
            reminder: "20:00"
            thresholds:
              - { metric: body_temperature, above: 37.5, days: 7, min_importance: 4 }

        `alerts check` prints what is due and exits 1 (0 when nothing is): run it from cron or a systemd timer
        (docs/reports.md has both recipes).
        """,
        subcommands: [AlertsCheck.self, AlertsSnooze.self, AlertsList.self, AlertsSet.self])
}

struct AlertsCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Print the alerts due now and exit 1 when there is one (each is announced once per due time).")
    @OptionGroup var log: LogOptions
    @Option(help: "Check as if it were this time (default: now).") var now: String?
    @Flag(help: "Print each due alert as a JSON object per line.") var json = false
    @Flag(name: .customLong("dry-run"), help: "Do not remember what was announced (the next check announces it again).")
    var dryRun = false

    func run() throws {
        let path = try log.existingStore()
        try log.refresh()
        let clock = try now.map { try log.time($0, flag: "--now", now: Int64(Date().timeIntervalSince1970)).utc } ?? Int64(Date().timeIntervalSince1970)
        // Read, then let the read-only connection go before the notices are written.
        let (subjects, due) = try { () throws -> ([String], [AlertsDue.Due]) in
            let q = try log.queries()
            let settings = try ReportSettings.stored(path)
            let subjects = try log.subject.map { [$0] } ?? q.subjects()
            // Each person's reminder falls due in their own zone.
            return (subjects, try subjects.flatMap { s in
                let checker = AlertsDue(queries: q, settings: settings, zone: try log.zones(subject: s).zone(at: clock))
                return try checker.unannounced(try checker.due(subject: s, now: clock))
            })
        }()
        var w = JSONWriter(capacity: 512)
        for d in due {
            if json {
                w.reset()
                w.beginObject()
                w.key("type"); w.string("alert")
                w.key("subject"); w.string(d.subject)
                w.key("kind"); w.string(d.kind.rawValue)
                w.key("metric"); w.string(d.metric)
                w.key("start"); w.string(LocalTimeText.format(utc: d.start, offset: d.offset))
                w.key("due"); w.string(LocalTimeText.format(utc: d.due, offset: d.offset))
                w.key("message"); w.string(d.text)
                w.endObject()
                w.newline()
                try emit(w.bytes)
            } else {
                print("\(d.kind == .reminder ? "reminder" : "alert")" + (subjects.count > 1 || d.subject != "default" ? " [\(d.subject)]" : "")
                      + ": \(d.text)")
            }
        }
        guard !due.isEmpty else { return }
        if !dryRun {
            try HealthLogEdits.recordNotices(path: path, due.map { ($0.subject, $0.kind, $0.metric, $0.start, $0.due) },
                                             now: Int64(Date().timeIntervalSince1970))
        }
        throw ExitCode(1)
    }
}

struct AlertsSnooze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze", abstract: "Postpone today's report reminder to a later time of the same day.")
    @OptionGroup var log: LogOptions
    @Option(help: "Until when (HH:MM today, or a time later today).") var until: String
    @Option(help: "Snooze as if it were this time (default: now).") var now: String?

    func run() throws {
        let path = try log.existingStore()
        let real = Int64(Date().timeIntervalSince1970)
        let clock = try now.map { try log.time($0, flag: "--now", now: real).utc } ?? real
        let today = try log.zones().day(at: clock)
        let t = try log.time(until, flag: "--until", now: clock)
        guard LocalDays.day(t.utc, t.offset) == today else {
            throw usage("--until \(until): a snooze ends later the same day (\(CivilDate.isoDate(fromDays: today)))")
        }
        guard t.utc > clock else { throw usage("--until \(until): that time has passed") }
        try HealthLogEdits.snooze(path: path, subject: log.who, day: today, until: t.utc, now: real)
        print("reminder of \(CivilDate.isoDate(fromDays: today)) postponed to \(LocalTimeText.wallClock(utc: t.utc, offset: t.offset).suffix(5))")
    }
}

struct AlertsList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List stored alerts: reminders missed, thresholds crossed (and glucose alerts).")
    @OptionGroup var log: LogOptions
    @OptionGroup var range: DayRange
    @Flag(help: "One JSON object per alert and line.") var json = false

    func run() throws {
        let q = try log.queries()
        let days = try range.resolve(log, span: DayRange.everything) ?? (0...0)
        var w = JSONWriter(capacity: 512)
        var out = ""
        for a in try q.alerts(subject: log.who, kinds: Alert.Kind.allCases) {
            let day = LocalDays.day(a.start, a.utcOffset)
            guard days.contains(day) else { continue }
            if json {
                w.reset()
                w.beginObject()
                w.key("kind"); w.string(a.kind.rawValue)
                w.key("metric"); w.string(a.metric.text)
                w.key("start"); w.string(LocalTimeText.format(utc: a.start, offset: a.utcOffset))
                w.key("end"); w.string(LocalTimeText.format(utc: a.end, offset: a.utcOffset))
                w.key("value"); w.double(a.value)
                w.key("threshold"); w.double(a.threshold)
                w.endObject()
                w.newline()
                out += String(decoding: w.bytes, as: UTF8.self)
            } else {
                out += "\(LocalTimeText.wallClock(utc: a.start, offset: a.utcOffset)) – \(LocalTimeText.wallClock(utc: a.end, offset: a.utcOffset))  "
                    + "\(a.kind.rawValue)  \(a.metric.text)  value \(AlertsDue.number(a.value))  threshold \(AlertsDue.number(a.threshold))\n"
            }
        }
        print(out, terminator: "")
    }
}

/// The `reports` step settings a database keeps (none: no reminder, no thresholds).
package enum ReportSettings {
    package static func stored(_ path: String) throws -> ReportAlertSettings {
        guard let settings = try StoreDerivation.stored(path), let step = settings["reports"] else { return ReportAlertSettings() }
        // The reports step is compiled in: reading the YAML adapters would cost every view that
        // shows a reminder most of its time.
        let registry = try BuiltinPlugins.builtInRegistry()
        guard let component = registry.component(named: "reports") else { return ReportAlertSettings() }
        let doc = step.document ?? ConfigDocument(command: "stored settings", root: step.options)
        let stage = try component.build(ComponentBuilder(stageName: "reports", document: doc, node: step.options, settings: RunSettings()))
        return (stage as? ReportsTransform)?.settings ?? ReportAlertSettings()
    }
}

/// The health log's store is what `AlertsDue` reads.
extension HealthLogQueries: AlertsDueStore {
    public func hasReport(subject: String, day: Int64) throws -> Bool {
        !(try reports(subject: subject, fromDay: day, toDay: day).isEmpty)
    }
}
