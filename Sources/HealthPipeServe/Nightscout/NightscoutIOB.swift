import Foundation
import HealthPipeCore
import SQLiteStore

/// Insulin on board as Nightscout's `iob` plugin takes it from a loop's device status
/// (`lib/plugins/iob.js`, `lastIOBDeviceStatus`): the newest reported in the last 30 minutes (or up
/// to 5 ahead, for clocks a little off), Loop's before any other's. Nightscout computes it from
/// treatments and the profile when no loop reported one; this server does not, and then gives none.
struct NightscoutIOB: Sendable {
    let iob: Double
    let source: String
    let device: String
    let mills: Int64

    static func newest(_ rows: NightscoutRows, subject: String, nowMillis: Int64) throws -> NightscoutIOB? {
        let now = nowMillis / 1000
        let found = try rows.readings(subject: subject, metric: "insulin_on_board", fromUTC: now - 30 * 60, toUTC: now + 5 * 60 + 1,
                                      limit: 1000, origin: .notTreatment)
        // The store lays a `loop://` source's status out as Loop's (`NightscoutDeviceStatus`), others as OpenAPS'.
        guard let row = found.first(where: { $0.source.hasPrefix("loop://") }) ?? found.first, let value = row.value else { return nil }
        return NightscoutIOB(iob: (value * 1000).rounded() / 1000, source: row.source.hasPrefix("loop://") ? "Loop" : "OpenAPS",
                             device: row.source, mills: row.start * 1000)
    }

    /// Nightscout's display: two decimals, `0` for none.
    var display: String {
        guard iob != 0 else { return "0" }
        let text = String(format: "%.2f", iob)
        return text == "-0.00" ? "0.00" : text
    }

    /// The `iob` property.
    func write(_ w: inout JSONWriter) {
        w.beginObject()
        w.field("iob", iob)
        w.field("source", source)
        w.field("device", device)
        w.field("mills", mills)
        w.field("display", display)
        w.field("displayLine", "IOB: " + display + "U")
        w.endObject()
    }
}
