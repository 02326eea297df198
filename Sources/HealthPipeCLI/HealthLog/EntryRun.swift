import ArgumentParser
import Foundation
import HealthLog
import HealthPipeAnalytics
import HealthPipeCore
import SQLiteStore
import Yams

/// Stores one hand-made entry the way every write to a database goes: the `health-entry` source
/// into the `sqlite` sink, run by `RunExecution` (which brings the days it changed up to date
/// from the store). The pipeline is a value; a refused option names the flag it came from.
struct EntryRun {
    var command: String
    var options: [(key: String, value: Node)] = []
    /// option → the flag it came from, for messages.
    var flags: [String: String] = [:]

    mutating func set(_ key: String, _ value: String?, flag: String) {
        guard let value else { return }
        options.append((key, Node(value)))
        flags[key] = flag
    }

    mutating func set(_ key: String, _ value: Double?, flag: String) { set(key, value.map(HealthValues.text), flag: flag) }

    mutating func set(_ key: String, _ values: [String], flag: String) {
        options.append((key, PipelineDraft.list(values.map { Node($0) })))
        flags[key] = flag
    }

    mutating func set(_ key: String, flag value: Bool) {
        if value { options.append((key, PipelineDraft.bool(true))) }
    }

    mutating func at(_ key: String, _ t: ZoneResolver.Resolved, flag: String) {
        set(key, LocalTimeText.format(utc: t.utc, offset: t.offset), flag: flag)
    }

    /// Runs the entry; `check` sees its records, as the sink will receive them, before anything is
    /// written, and refuses them by throwing a `ConfigError` (exit 2).
    /// `done` is printed once the entry is stored, before the alerts it raised.
    func run(_ log: LogOptions, done: String, check: (RecordBatch) throws -> Void = { _ in }) throws {
        let path = log.dbPath
        var p = PipelineDraft(command: command)
        p.add(.source, "entry", type: "health-entry", onError: .fail, options: options)
        for (key, flag) in flags { p.flags["entry.\(key)"] = flag }
        p.add(.sink, "db", type: "sqlite", inputs: ["entry"], options: [("path", Node(path))])
        p.flags["db"] = "--db \(log.db)"
        let before = try Self.thresholdAlerts(path, subject: log.who)
        let settings = RunSettings(timezone: log.timezone, subject: try log.who, baseDirectory: FileManager.default.currentDirectoryPath)
        try RunExecution.execute(spec: p.spec(), registry: try log.registry, settings: settings,
                                 defaultQuarantine: DefaultQuarantine.beside(database: path), reportPath: nil, quiet: true, showProgress: false) { graph in
            for n in graph.nodes { if let entry = n.stage as? EntrySource { try check(entry.batch) } }
        }
        print(done)
        Self.announce(path, subject: try log.who, before: before)
    }
}

extension EntryRun {
    /// The subject's threshold alerts (what an entry can raise), by key.
    static func thresholdAlerts(_ path: String, subject: String) throws -> Set<String> {
        guard FileManager.default.fileExists(atPath: path), let q = try? HealthLogQueries(path: path) else { return [] }
        return Set(try q.alerts(subject: subject, kinds: [.averageAbove, .averageBelow]).map { "\($0.kind.rawValue)|\($0.metric.text)|\($0.start)" })
    }

    /// Prints the threshold alerts the entry raised (`healthpipe alerts check` announces them too).
    static func announce(_ path: String, subject: String, before: Set<String>) {
        guard let q = try? HealthLogQueries(path: path), let settings = try? ReportSettings.stored(path),
              let now = try? q.alerts(subject: subject, kinds: [.averageAbove, .averageBelow]) else { return }
        for a in now where !before.contains("\(a.kind.rawValue)|\(a.metric.text)|\(a.start)") {
            print("alert: " + AlertsDue.describe(a, settings))
        }
    }
}

/// A refusal of a typed entry, before anything is written (exit 2).
func refusal(_ command: String, _ message: String) -> ConfigError {
    ConfigError(file: command, line: 0, column: 0, message: message)
}
