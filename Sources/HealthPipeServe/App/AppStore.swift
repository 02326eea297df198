import Charts
import HealthPipeAnalytics
import Foundation
import HealthPipeCLI
import HealthPipeCore
import HealthPipeStore
import SQLiteStore
import Synchronization

/// What the app's screens read from the database, each call on `StoreWork.read`: whose data it is,
/// and a loader of the Charts module's views over the store (the same loader `page` uses).
final class AppStore: Sendable {
    let path: String
    /// The zone of people without one of their own (`serve --timezone`, else this computer's).
    let defaultZone: TimeZone
    /// `serve --subject`: the person the app opens on (the API's only person).
    let defaultSubject: String?
    /// Each subject's fitted forecaster, valid while the database's version says nothing changed
    /// (else while the readings it was fitted on are the same).
    let forecasts: ForecastCheckpoints
    private let memo = Mutex<(version: String, stored: Stored)?>(nil)

    init(path: String, defaultZone: TimeZone = .current, defaultSubject: String? = nil) {
        self.path = path
        self.defaultZone = defaultZone
        self.defaultSubject = defaultSubject
        forecasts = ForecastCheckpoints(storeVersion: { LiveVersion.of(database: path) })
    }

    /// What every screen reads from the store's settings and subjects, read again only when the
    /// database has moved (`LiveVersion`): its people, the bands the store classifies with and the
    /// report settings.
    struct Stored: Sendable {
        /// Everyone the database holds anything for, and the default person, sorted: the switcher's list.
        var people: [String]
        /// The person of an address without `?person=`: `serve --subject`, else the first with glucose
        /// readings, else the database's first subject, else `default` (the subject a first entry writes).
        var defaultPerson: String
        var bands: BandScheme?
        /// Each person's zone history: their typed times, "now" and "today" (`healthpipe person`).
        var zones: [String: ZoneHistory]
        /// Settings that cannot be read fail only the screens that show them.
        var reportSettings: Result<ReportAlertSettings, Unreadable>
        var reports: ReportAlertSettings { get throws { try reportSettings.get() } }

        struct Unreadable: Error, Sendable, CustomStringConvertible {
            var description: String
        }
    }

    func stored() throws -> Stored {
        // The version is read before the store: a commit in between only makes the next call read again.
        let version = LiveVersion.of(database: path)
        if let kept = memo.withLock({ $0 }), kept.version == version { return kept.stored }
        let store = SQLiteHealthStore(path: path)
        let all = (try? store.allSubjects()) ?? []
        let defaultPerson = try defaultSubject ?? store.reader().subjects().first ?? all.first ?? "default"
        let people = Set(all + [defaultPerson]).sorted()
        var zones: [String: ZoneHistory] = [:]
        for person in people { zones[person] = ZoneHistory(periods: try store.zonePeriods(subject: person), fallback: defaultZone) }
        let stored = Stored(people: people, defaultPerson: defaultPerson, bands: StoredBands.scheme(at: path), zones: zones,
                            reportSettings: Result { try ReportSettings.stored(path) }.mapError { Stored.Unreadable(description: "\($0)") })
        memo.withLock { $0 = (version, stored) }
        return stored
    }

    /// The person an address asks for (`?person=`), else the default one; someone the database does
    /// not hold is `PersonNotFound` (a 404 that lists who is there).
    func person(named requested: String?) throws -> String {
        let s = try stored()
        guard let requested else { return s.defaultPerson }
        guard s.people.contains(requested) else { throw PersonNotFound(name: requested, people: s.people) }
        return requested
    }

    /// The views' settings for these preferences; the bands of the preference, else the store's.
    func settings(_ prefs: AppPreferences) -> ViewSettings {
        var s = ViewSettings()
        s.unit = prefs.unit
        s.showBasal = prefs.showBasal
        s.scheme = prefs.bands.flatMap { BandScheme.presets[$0] } ?? (try? stored().bands) ?? nil
        return s
    }

    struct Glucose {
        var loader: ChartLoader
        /// The first and last day with readings; nil: none yet.
        var span: ClosedRange<Int64>?
    }

    func glucose(_ prefs: AppPreferences, person: String) throws -> Glucose {
        let reader = try SQLiteHealthStore(path: path).reader()
        let loader = ChartLoader(source: StoreChartSource(reader: reader, subject: person), subject: person, settings: settings(prefs),
                                 forecastCheckpoints: forecasts)
        return Glucose(loader: loader, span: try loader.span().map { $0.first...$0.last })
    }

    /// The store's queries (daily summaries and the rest).
    func reader() throws -> StoreReader { try SQLiteHealthStore(path: path).reader() }

    func healthLog() throws -> HealthLogQueries { try HealthLogQueries(path: path) }

    /// The person's zones; the default alone when the store cannot be read (the screen says why).
    func zones(_ person: String) -> ZoneHistory {
        (try? stored().zones[person]) ?? ZoneHistory(periods: [], fallback: defaultZone)
    }

    /// Today in the person's zone (the seeds' "today"; typed times are read in their zone too).
    func today(_ person: String) -> Int64 { zones(person).day(at: Int64(Date().timeIntervalSince1970)) }
}

/// An address asked for someone the database does not hold.
struct PersonNotFound: Error, Sendable {
    var name: String
    var people: [String]
}

/// How this browser wants the views drawn (the seeds' settings page: bands, basal on/off, unit),
/// kept in a cookie as `page`'s flags keep them for one file (--preset, --basal, --unit).
struct AppPreferences: Sendable, Equatable {
    static let cookieName = "hp_view"
    var unit: DisplayUnit = .mmolL
    var showBasal = true
    /// A band preset (seeds, consensus, range); nil: the bands the store classifies with.
    var bands: String?

    init() {}

    init(cookie: String?) {
        guard let cookie else { return }
        for pair in cookie.split(separator: ".") {
            let kv = pair.split(separator: "-", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { continue }
            switch kv[0] {
            case "unit": unit = kv[1] == "mgdl" ? .mgdL : .mmolL
            case "basal": showBasal = kv[1] != "off"
            case "bands": bands = BandScheme.presets[kv[1]] != nil ? kv[1] : nil
            default: continue
            }
        }
    }

    /// Cookie-safe text: letters, digits, `-` and `.` only.
    var cookie: String {
        let parts = ["unit-" + (unit == .mgdL ? "mgdl" : "mmol"), "basal-" + (showBasal ? "on" : "off")] + (bands.map { ["bands-" + $0] } ?? [])
        return parts.joined(separator: ".")
    }
}
