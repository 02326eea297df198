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
    /// The subject's fitted forecaster, valid while the database's version says nothing changed
    /// (else while the readings it was fitted on are the same).
    let forecasts: ForecastCheckpoints
    private let memo = Mutex<(version: String, stored: Stored)?>(nil)

    init(path: String, defaultZone: TimeZone = .current) {
        self.path = path
        self.defaultZone = defaultZone
        forecasts = ForecastCheckpoints(storeVersion: { LiveVersion.of(database: path) })
    }

    /// What every screen reads from the store's settings and subjects, read again only when the
    /// database has moved (`LiveVersion`): the person shown, the bands the store classifies with
    /// and the report settings.
    struct Stored: Sendable {
        /// The one with glucose readings, else the database's only subject, else `default` (the
        /// subject a first entry writes).
        var subject: String
        var bands: BandScheme?
        /// The person's zone history: their typed times, "now" and "today" (`healthpipe person`).
        var zones: ZoneHistory
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
        let subject = try store.reader().subjects().first ?? (try? store.allSubjects())?.first ?? "default"
        let zones = ZoneHistory(periods: try store.zonePeriods(subject: subject), fallback: defaultZone)
        let stored = Stored(subject: subject, bands: StoredBands.scheme(at: path), zones: zones,
                            reportSettings: Result { try ReportSettings.stored(path) }.mapError { Stored.Unreadable(description: "\($0)") })
        memo.withLock { $0 = (version, stored) }
        return stored
    }

    /// The person shown (`Stored.subject`).
    func subject() throws -> String { try stored().subject }

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

    func glucose(_ prefs: AppPreferences) throws -> Glucose {
        let reader = try SQLiteHealthStore(path: path).reader()
        let subject = try subject()
        let loader = ChartLoader(source: StoreChartSource(reader: reader, subject: subject), subject: subject, settings: settings(prefs),
                                 forecastCheckpoints: forecasts)
        return Glucose(loader: loader, span: try loader.span().map { $0.first...$0.last })
    }

    func healthLog() throws -> HealthLogQueries { try HealthLogQueries(path: path) }

    /// The person's zones; the default alone when the store cannot be read (the screen says why).
    func zones() -> ZoneHistory { (try? stored().zones) ?? ZoneHistory(periods: [], fallback: defaultZone) }

    /// Today in the person's zone (the seeds' "today"; typed times are read in their zone too).
    func today() -> Int64 { zones().day(at: Int64(Date().timeIntervalSince1970)) }
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
