import ArgumentParser
import BuiltinPlugins
import Foundation
import HealthPipeCore
import HealthPipeStore
import SQLiteStore

/// Flags every health-log command takes: the database, whose log, and the zone typed times are in.
struct LogOptions: ParsableArguments {
    @OptionGroup var store: StoreOptions
    @OptionGroup var subjectOption: SubjectOption
    @Option(help: "Zone of this command's typed times without an offset: IANA name or ±HH:MM (default: the person's zone, `healthpipe person`).")
    var timezone: String?
    @Option(help: .hidden) var defaultTimezone: String?

    var db: String { store.db }
    var subject: String? { subjectOption.subject }
    /// The SQLite file (created by the first entry).
    var dbPath: String { store.location.path }
    /// `--subject`, else the database's only subject (SubjectRule).
    var who: String { get throws { try SubjectRule.resolve(subject, database: dbPath, label: "--db \(db)") } }

    /// The zones typed times, "now" and "today" are read in: `--timezone` for this command, else the
    /// person's zone history, else the default (`serve --timezone` passes its own as the hidden
    /// `--default-timezone`; otherwise this computer's zone, $TZ). An unknown name is a usage error.
    /// In a database of several people without `--subject`, only the default (the command refuses
    /// or lists them all anyway).
    func zones() throws -> ZoneHistory { try zones(subject: subject ?? impliedSubject()) }

    /// The zones of `subject` (as `zones()` for another person of the database; nil: nobody's).
    func zones(subject: String?) throws -> ZoneHistory {
        if let timezone { return ZoneHistory(periods: [], fallback: try Self.named(timezone, flag: "--timezone")) }
        let fallback = try defaultTimezone.map { try Self.named($0, flag: "--default-timezone") } ?? TimeZone.current
        guard let subject else { return ZoneHistory(periods: [], fallback: fallback) }
        do {
            return ZoneHistory(periods: try SQLiteHealthStore(path: dbPath).zonePeriods(subject: subject), fallback: fallback)
        } catch let e as ExitCode { throw e } catch {
            throw usage("--db \(db): \(error)")
        }
    }

    /// The database's only subject (`default` for none yet), nil for several; never an error.
    private func impliedSubject() -> String? {
        guard FileManager.default.fileExists(atPath: dbPath) else { return SubjectRule.newStore }
        return SubjectRule.implied(by: (try? SQLiteHealthStore(path: dbPath).allSubjects()) ?? [])
    }

    static func named(_ name: String, flag: String) throws -> TimeZone {
        guard let z = ZoneResolver.timeZone(named: name) else {
            throw usage("\(flag) \(EchoText.cap(name)): unknown zone (use an IANA name such as Europe/London, or +01:00)")
        }
        return z
    }

    /// The database must exist for reading, editing and deleting (never created by a typo).
    func existingStore() throws -> String { try store.location.existingPathForUsage() }

    func queries() throws -> HealthLogQueries {
        do { return try HealthLogQueries(path: try existingStore()) } catch let e as ExitCode { throw e } catch {
            throw usage("--db \(db): \(error)")
        }
    }

    /// A typed moment (`--at 20:00`, `--start 2024-03-05 08:00`, `now`), in the person's zone at that moment.
    func time(_ text: String, flag: String, now: Int64) throws -> ZoneResolver.Resolved {
        guard let t = try zones().parse(text, now: now) else {
            throw usage("\(flag) \(EchoText.cap(text)): not a time such as 2024-03-05 20:00, 20:00 or now")
        }
        if let problem = PlausibleTime.problem(t.utc) { throw usage("\(flag) \(EchoText.cap(text)): \(problem)") }
        return t
    }

    /// A typed local day (`2024-03-05`, `today`, `yesterday`).
    func day(_ text: String, flag: String, now: Int64) throws -> Int64 {
        let today = try zones().day(at: now)
        switch text.lowercased() {
        case "today": return today
        case "yesterday": return today - 1
        default:
            guard let d = CivilDate.days(fromISO: text) else {
                throw usage("\(flag) \(EchoText.cap(text)): not a day (YYYY-MM-DD, today, yesterday)")
            }
            return PlausibleTime.clampedDay(d)
        }
    }

    var registry: ComponentRegistry {
        get throws {
            do { return try BuiltinPlugins.builtInRegistry() } catch { throw configFailure(error) }
        }
    }

    /// After a delete: brings the days it made pending up to date from the store, in the person's
    /// zone (`EditRefresh`; `--default-timezone` when the person has none).
    func refresh() throws {
        let path = dbPath
        guard let report = try EditRefresh.run(db: path, subject: try who, defaultZone: defaultTimezone, registry: try registry,
                                               baseDirectory: FileManager.default.currentDirectoryPath,
                                               quarantine: DefaultQuarantine.beside(database: path)),
              report.outcome != .completed else { return }
        printError("refresh of \(db) did not complete: \(report.error ?? report.outcome.rawValue)")
        throw ExitCode(1)
    }

    /// Deletes one report or entry by id (exit 1 naming it when missing), then brings the days it
    /// counted in up to date.
    func delete(_ what: String, id: String, with edit: (_ path: String, _ subject: String, _ id: String) throws -> Bool) throws {
        let who = try who
        guard try edit(try existingStore(), who, id) else { throw missing(what, id, subject: who) }
        try refresh()
        print("\(what) \(id) deleted")
    }

}

/// Prints a usage mistake and exits 2 (nothing is written).
func usage(_ message: String) -> ExitCode {
    printError(message)
    return ExitCode(2)
}

/// Prints that an id is not stored and exits 1.
func missing(_ what: String, _ id: String, subject: String) -> ExitCode {
    printError("no \(what) with id '\(id)'" + (subject == SubjectRule.newStore ? "" : " for subject \(subject)"))
    return ExitCode(1)
}

/// The clock, to the minute: an entry typed twice within a minute is the same entry.
var nowToTheMinute: Int64 {
    let t = Int64(Date().timeIntervalSince1970)
    return t - t % 60
}

