import HealthPipeCore

/// Times as Nightscout writes them back: `dateString`/`created_at` in UTC with milliseconds
/// (`2024-03-01T08:00:00.000Z`, what its API returns), `date`/`mills` in epoch milliseconds.
enum NightscoutTime {
    static func iso(_ seconds: Int64) -> String { CivilDate.isoDateTime(seconds: seconds) + ".000Z" }
}
