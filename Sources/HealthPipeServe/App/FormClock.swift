import Foundation
import HealthPipeCore

/// The clock the app's forms show: "now" and a day's times in the person's zone (`ZoneHistory`),
/// as a browser's `datetime-local` field holds them (2024-03-05T08:12), never the server's zone.
struct FormClock {
    let zones: ZoneHistory
    var now: Int64 = Int64(Date().timeIntervalSince1970)

    /// Now, on the person's clock.
    var localNow: String { String(CivilDate.isoDateTime(seconds: now + Int64(zones.offset(at: now))).prefix(16)) }

    /// The time a new entry on `day` gets: now on the person's today, noon on another day.
    func defaultTime(on day: Int64) -> String {
        zones.day(at: now) == day ? localNow : CivilDate.isoDate(fromDays: day) + "T12:00"
    }

    /// `HH:MM` of `utc` on the person's clock.
    func clock(_ utc: Int64) -> String {
        String(CivilDate.isoDateTime(seconds: utc + Int64(zones.offset(at: utc))).dropFirst(11).prefix(5))
    }
}
