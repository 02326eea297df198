import Foundation
import HealthPipeCore

/// The refresh after an edit made outside an import (an entry deleted with `healthpipe log`, an
/// uploaded treatment that replaced another under `healthpipe serve`): one rule for both, so the
/// days the edit made pending are derived as an import of the same person derives them.
public enum EditRefresh {
    /// The zone `subject`'s times without an offset are read in now: the person's zone
    /// (`healthpipe person`, the store's zone history), else `defaultZone` (`serve --timezone`),
    /// else nil (this computer's zone).
    public static func zoneNow(of subject: String, in store: HealthStore, defaultZone: String?) -> String? {
        let periods = (try? store.zonePeriods(subject: subject)) ?? []
        return ZoneHistory(periods: periods, fallback: .current).period(at: Int64(Date().timeIntervalSince1970))?.zone ?? defaultZone
    }

    /// Brings the pending days of the store at `db` up to date, run as `subject` in that person's
    /// zone now; nil when nothing was pending. A report whose outcome is not `completed` is the
    /// caller's to tell.
    public static func run(db: String, subject: String, defaultZone: String?, registry: ComponentRegistry,
                           baseDirectory: String, quarantine: String) throws -> RunReport? {
        let store = HealthStores.at(db)
        let run = RunSettings(timezone: zoneNow(of: subject, in: store, defaultZone: defaultZone), subject: subject,
                              baseDirectory: baseDirectory)
        return try StoreDerivation.refresh(store, registry: registry, run: run, quarantine: quarantine)
    }
}
