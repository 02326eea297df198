import ArgumentParser
import Foundation
import HealthPipeCore
import HealthPipeStore
import PostgresStore

/// `healthpipe person`: the zone a person lives in, over time (`subject_zones`). Every typed time,
/// "now", "today", reminder and upload without an offset of theirs follows it (docs/reports.md).
struct PersonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "person", abstract: "Show or set the zone a person lives in (typed times, reminders and \"now\" follow it).",
        discussion: """
        Without --timezone, lists the person's zones. With it, the person lives in that zone from --from on (a move: entries \
        before it keep the old zone); a person's first zone, set without --from, covers everything before it too. \
        `import --timezone` gives a person without a zone that one.
        """)
    @OptionGroup var store: StoreOptions
    @OptionGroup var subjectOption: SubjectOption
    @Option(help: "The zone: an IANA name (Europe/Berlin) or ±HH:MM.") var timezone: String?
    @Option(help: "Since when (2024-06-01, 2024-06-01 08:00, read in the new zone; default: now, or always for a first zone).")
    var from: String?

    func run() throws {
        let location = store.location
        let health = HealthStores.at(location.pathOrURL)
        let label = "--db \(store.db)"
        let subject = location.isPostgres ? try SubjectRule.resolve(subjectOption.subject, store: health, label: label)
            : try SubjectRule.resolve(subjectOption.subject, database: location.path, label: label)
        let now = Int64(Date().timeIntervalSince1970)
        do {
            let periods = try health.zonePeriods(subject: subject)
            guard let timezone else {
                if from != nil { throw usage("--from needs --timezone") }
                guard !periods.isEmpty else { return print("\(subject): no zone of their own (typed times follow --timezone, else this computer's zone)") }
                for p in periods { print("\(subject): \(PersonZoneText.since(p)) \(p.zone)") }
                return
            }
            let zone = try LogOptions.named(timezone, flag: "--timezone")
            var start = periods.isEmpty ? ZoneHistory.always : now
            if let from {
                guard let t = LocalTimeText.parse(from, zone: zone, now: now) else {
                    throw usage("--from \(EchoText.cap(from)): not a time such as 2024-06-01 or 2024-06-01 08:00")
                }
                if let problem = PlausibleTime.problem(t.utc) { throw usage("--from \(EchoText.cap(from)): \(problem)") }
                start = t.utc
            }
            try health.setZone(subject: subject, zone: timezone, from: start, now: now)
            print("\(subject): \(PersonZoneText.since(ZoneHistory.Period(from: start, zone: timezone))) \(timezone)")
        } catch let e as ExitCode { throw e } catch {
            printError(health.redact("\(label): \(error)"))
            throw ExitCode(1)
        }
    }
}

/// How a zone period is named in messages: `since always`, `from 2024-06-01 00:00 (+02:00)`.
enum PersonZoneText {
    static func since(_ p: ZoneHistory.Period) -> String {
        guard p.from != ZoneHistory.always, let zone = ZoneResolver.timeZone(named: p.zone) else { return "since always" }
        let offset = LocalTimeText.offset(of: zone, at: p.from)
        return "from " + LocalTimeText.wallClock(utc: p.from, offset: offset) + " (" + String(LocalTimeText.format(utc: p.from, offset: offset).suffix(6)) + ")"
    }
}
