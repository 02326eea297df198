import Foundation
import HealthPipeCore
import Hummingbird
import SQLiteStore

/// `GET /pebble`, what Pebble, Garmin and Fitbit watch faces and desktop widgets read
/// (cgm-remote-monitor `lib/server/pebble.js`): `status: [{now}]`, `bgs` — the newest CGM readings
/// (`count`, default 1) of the last two days, each `sgv` as a text (mg/dL, or mmol/L to one decimal
/// with `units=mmol`), `trend` (0–9), `direction`, `datetime` (ms) — the first with `bgdelta` (the
/// `bgnow` delta, 0 without one; a text in mmol/L), `battery` (the uploader's, a text) and `iob` (a
/// loop's, `NightscoutIOB`) — and `cals: []` (no raw readings are kept). Nightscout's `cob` and `bwp`
/// need its treatment models and the profile, which this server does not run: they are left out.
/// It is a read: credentials as for the API (`RouteAccess`).
struct PebbleRoute {
    static let path = "/pebble"
    let settings: ServeSettings

    func add(to router: Router<ServeContext>) {
        router.get(RouterPath(Self.path)) { request, _ in try await self.answer(request) }
    }

    /// What the route reads from the store at once.
    private struct Snapshot: Sendable {
        var bgs: [NightscoutEntry] = []
        var window: [NightscoutEntry] = []
        var battery: Double?
        var iob: NightscoutIOB?
    }

    private func answer(_ request: Request) async throws -> Response {
        let count = Self.count(request.uri.queryParameters["count"].map(String.init))
        let mmol = request.uri.queryParameters["units"] == "mmol"
        let nowMillis = Int64(Date().timeIntervalSince1970 * 1000)
        let snapshot = try await NightscoutRoutes(settings: settings).read { rows, subject in
            let end = nowMillis / 1000 + 1, start = end - NightscoutBGNow.loadedSeconds
            func newest(_ metric: String, from: Int64) throws -> Double? {
                try rows.readings(subject: subject, metric: metric, fromUTC: from, toUTC: end, limit: 1, origin: .notTreatment).first?.value
            }
            return Snapshot(bgs: try NightscoutEntryReads.entries(rows, subject: subject, type: "sgv", fromUTC: start, toUTC: end, limit: count),
                            window: try NightscoutBGNow.window(rows, subject: subject, nowMillis: nowMillis),
                            battery: try newest("uploader_battery", from: start),
                            iob: try NightscoutIOB.newest(rows, subject: subject, nowMillis: nowMillis))
        } ?? Snapshot()
        let bgNow = NightscoutBGNow(snapshot.window, nowMillis: nowMillis, mmol: mmol)
        var w = JSONWriter(capacity: 256 + 128 * snapshot.bgs.count)
        w.beginObject()
        w.key("status"); w.beginArray(); w.beginObject(); w.field("now", nowMillis); w.endObject(); w.endArray()
        w.key("bgs"); w.beginArray()
        for (i, e) in snapshot.bgs.prefix(count).enumerated() {
            w.beginObject()
            w.field("sgv", mmol ? NightscoutBGNow.mmolText(e.mgdl) : String(e.value))
            w.field("trend", NightscoutDirection.trend(e.direction))
            w.field("direction", ifPresent: e.direction)
            w.field("datetime", e.row.start * 1000)
            if i == 0 { writeExtras(snapshot, delta: bgNow.delta?.scaled(mmol: mmol) ?? 0, mmol: mmol, &w) }
            w.endObject()
        }
        w.endArray()
        w.key("cals"); w.beginArray(); w.endArray()
        w.endObject()
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: w.bytes)))
    }

    /// What Nightscout adds to the first reading only.
    private func writeExtras(_ s: Snapshot, delta: Double, mmol: Bool, _ w: inout JSONWriter) {
        if mmol { w.field("bgdelta", NightscoutBGNow.oneDecimal(delta)) } else { w.field("bgdelta", delta) }
        if let battery = s.battery, battery > 0 { w.field("battery", NightscoutBGNow.jsNumber(battery)) }
        if let iob = s.iob { w.field("iob", iob.display) }
    }

    /// `count` as `parseInt(count) || 1` reads it (leading digits; nothing, 0 or a negative: 1),
    /// at most the API's limit.
    static func count(_ text: String?) -> Int {
        guard let text else { return 1 }
        let digits = text.drop { $0 == " " }.prefix { $0.isASCII && $0.isNumber }
        guard let n = Int(digits.prefix(9)), n > 0 else { return 1 }
        return min(n, NightscoutFind.maxCount)
    }
}
