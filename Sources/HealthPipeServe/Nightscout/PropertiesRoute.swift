import Foundation
import HealthPipeCore
import Hummingbird

/// `GET /api/v2/properties` and `/api/v2/properties/NAME,NAME…`: Nightscout's plugin properties
/// (cgm-remote-monitor `lib/api2/properties.js`), which widgets, voice assistants and followers
/// read. Each is answered as Nightscout computes it from the CGM readings: `bgnow` (the newest
/// bucket: `mean`, `last`, `mills`, `sgvs`), `delta` (`absolute`, `elapsedMins`, `interpolated`,
/// `mean5MinsAgo`, `times`, `mgdl`, `scaled`, `display`, `previous`), `direction` (`value`, `label`,
/// `entity`; only while the newest reading is at most 15 minutes old), `buckets` (the four
/// 5-minute buckets) and `iob` (a loop's, `NightscoutIOB`). A property that cannot be computed (no
/// delta without two buckets of readings, no iob without a loop's recent status) or that this
/// server does not compute (`cob`, `basal`, `upbat`, …) is left out, as
/// Nightscout leaves out what its plugins cannot offer; without CGM readings `bgnow` and `buckets` are left out too (an empty store answers `{}`).
struct PropertiesRoute {
    static let path = "/api/v2/properties"
    static let names = ["bgnow", "delta", "direction", "buckets", "iob"]
    let settings: ServeSettings

    func add(to router: Router<ServeContext>) {
        router.get(RouterPath(Self.path)) { _, _ in try await self.answer(selected: []) }
        router.get(RouterPath(Self.path + "/:names")) { _, context in
            try await self.answer(selected: try context.parameters.require("names").split(separator: ",").map(String.init))
        }
    }

    private func answer(selected: [String]) async throws -> Response {
        let nowMillis = Int64(Date().timeIntervalSince1970 * 1000)
        let (window, iob) = try await NightscoutRoutes(settings: settings).read { rows, subject in
            (try NightscoutBGNow.window(rows, subject: subject, nowMillis: nowMillis), try NightscoutIOB.newest(rows, subject: subject, nowMillis: nowMillis))
        } ?? ([], nil)
        let bgNow = NightscoutBGNow(window, nowMillis: nowMillis, mmol: false)
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        var written = Set<String>()
        for name in selected.isEmpty ? Self.names : selected where Self.names.contains(name) && written.insert(name).inserted {
            write(name, bgNow, newest: window.first, iob: iob, nowMillis: nowMillis, &w)
        }
        w.endObject()
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: w.bytes)))
    }

    private func write(_ name: String, _ bgNow: NightscoutBGNow, newest: NightscoutEntry?, iob: NightscoutIOB?, nowMillis: Int64,
                       _ w: inout JSONWriter) {
        switch name {
        case "bgnow":
            guard newest != nil else { return }
            w.key("bgnow")
            if let recent = bgNow.recent { bgNow.writeBucket(recent, withPlace: false, &w) } else { w.beginObject(); w.endObject() }
        case "delta":
            guard let delta = bgNow.delta else { return }
            w.key("delta")
            bgNow.writeDelta(delta, &w)
        case "direction":
            // Nightscout shows a direction only for a current reading (at most 15 minutes old).
            guard let newest, nowMillis - newest.row.start * 1000 <= 15 * 60_000 else { return }
            w.key("direction"); w.beginObject()
            w.key("display"); w.null()
            w.field("value", ifPresent: newest.direction)
            w.field("label", NightscoutDirection.label(newest.direction))
            w.field("entity", NightscoutDirection.entity(newest.direction))
            w.endObject()
        case "buckets":
            guard newest != nil else { return }
            w.key("buckets"); w.beginArray()
            for b in bgNow.buckets { bgNow.writeBucket(b, withPlace: true, &w) }
            w.endArray()
        case "iob":
            guard let iob else { return }
            w.key("iob")
            iob.write(&w)
        default:
            break
        }
    }
}
