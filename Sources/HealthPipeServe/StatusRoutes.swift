import Foundation
import Hummingbird

/// `/api/v1/status(.json)`: what Nightscout's clients ask first (xDrip+, AndroidAPS and Loop read
/// `status`, `apiEnabled`, `settings.units` and `authorized`).
struct StatusRoutes {
    let settings: ServeSettings
    static let nightscoutVersion = "15.0.2"

    func add(to router: Router<ServeContext>) {
        for path in ["/api/v1/status", "/api/v1/status.json"] {
            router.get(RouterPath(path)) { _, context in self.status(context) }
        }
    }

    func status(_ context: ServeContext) -> Response {
        let now = Date()
        let body: [String: Any] = [
            "status": "ok", "name": "HealthPipe", "version": Self.nightscoutVersion,
            "serverTime": ISO8601DateFormatter().string(from: now), "serverTimeEpoch": Int64(now.timeIntervalSince1970 * 1000),
            "apiEnabled": true, "careportalEnabled": true, "boluscalcEnabled": false,
            "settings": ["units": "mg/dl", "enable": ["careportal", "iob", "cob", "basal"], "authDefaultRoles": settings.openReads ? "readable" : "denied"],
            "extendedSettings": [String: Any](),
            "authorized": context.role?.rawValue ?? "none",
        ]
        return JSONBody.response(body)
    }
}

/// JSON responses from Foundation values, sorted keys for stable output.
enum JSONBody {
    static func response(_ value: Any, status: HTTPResponse.Status = .ok) -> Response {
        // Fragments allowed: `profile/current` of an empty store answers `null` (without the option, a fatal error).
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
