import Foundation
import HealthPipeCore

/// Times as Nightscout writes them back: `dateString`/`created_at` in UTC with milliseconds
/// (`2024-03-01T08:00:00.000Z`, what its API returns), `date`/`mills` in epoch milliseconds.
enum NightscoutTime {
    static func iso(_ seconds: Int64) -> String { CivilDate.isoDateTime(seconds: seconds) + ".000Z" }

    /// The fields a document's time is read from, in the mapping's order (the `_id`, the API v3
    /// identifier and a treatment's replacement identity all read it here).
    static let entryKeys = ["date", "dateString", "sysTime"]
    static let treatmentKeys = ["created_at", "timestamp", "mills", "date"]
    static let deviceStatusKeys = ["created_at", "mills", "date"]

    /// The UTC second of the first of `keys` the mapping can read as a time (a number of epoch
    /// milliseconds or a text), in whole seconds, the store's precision; nil when none can be read.
    static func seconds(of doc: [String: Any], _ keys: [String]) -> Int64? {
        for key in keys {
            if let n = doc[key] as? NSNumber, !(n is Bool) {
                if let s = NightscoutInstantText.seconds(n.stringValue) { return s }
            } else if let s = doc[key] as? String, let v = NightscoutInstantText.seconds(s) {
                return v
            }
        }
        return nil
    }
}
