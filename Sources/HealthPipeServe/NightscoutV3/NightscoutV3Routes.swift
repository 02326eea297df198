import Foundation
import Hummingbird

/// Nightscout's API v3 (cgm-remote-monitor `lib/api3`), what AndroidAPS's NSClientV3 uses
/// (`core/nssdk` NightscoutRemoteService): `status`, `version`, `lastModified`, and per collection
/// search, history, read, create, update, patch and delete. Credentials are a JWT from
/// `/api/v2/authorization/request/<token>` (`AuthorizationRequestRoute`), checked by `AccessGuard`
/// with every other credential; writes need the write role. docs/serve.md lists the routes.
struct NightscoutV3Routes {
    static let apiVersion = "3.0.3-alpha"
    let settings: ServeSettings

    func add(to router: Router<ServeContext>) {
        let v3 = "/api/v3/"
        router.get(RouterPath(v3 + "version")) { _, _ in NightscoutV3Reply.result(Self.versionInfo()) }
        router.get(RouterPath(v3 + "status")) { _, context in
            var info = Self.versionInfo()
            // AndroidAPS uploads only with "crud" on every collection (ApiPermissions.isFull).
            let permission = context.role == .write ? "crud" : "r"
            info["apiPermissions"] = Dictionary(uniqueKeysWithValues: (NightscoutV3Documents.collections + ["settings"]).map { ($0, permission) })
            return NightscoutV3Reply.result(info)
        }
        router.get(RouterPath(v3 + "lastModified")) { _, _ in try await self.lastModified() }
        for collection in NightscoutV3Documents.collections {
            let reads = NightscoutV3Reads(settings: settings, collection: collection)
            let writes = NightscoutV3Writes(settings: settings, collection: collection)
            let base = v3 + collection
            router.get(RouterPath(base)) { request, _ in try await reads.search(request) }
            router.get(RouterPath(base + "/history/:lastModified")) { request, context in
                try await reads.history(request, since: try context.parameters.require("lastModified"))
            }
            router.get(RouterPath(base + "/:identifier")) { _, context in try await reads.read(identifier: try context.parameters.require("identifier")) }
            guard collection != "food" else { continue }  // the store keeps no food database: reads answer none
            router.post(RouterPath(base)) { request, context in try await writes.create(request, context) }
            router.put(RouterPath(base + "/:identifier")) { request, context in
                try await writes.update(request, context, identifier: try context.parameters.require("identifier"), patch: false)
            }
            router.patch(RouterPath(base + "/:identifier")) { request, context in
                try await writes.update(request, context, identifier: try context.parameters.require("identifier"), patch: true)
            }
            router.delete(RouterPath(base + "/:identifier")) { _, context in
                let identifier = try context.parameters.require("identifier")
                // The profile is kept as the person's settings, not as rows a deletion could remember.
                guard collection != "profile" else { return NightscoutV3Reply.status(.badRequest, "the profile is not deleted: upload another") }
                return try await writes.delete(identifier: identifier)
            }
        }
    }

    static func versionInfo() -> [String: Any] {
        ["version": StatusRoutes.nightscoutVersion, "apiVersion": apiVersion, "srvDate": Int64(Date().timeIntervalSince1970 * 1000),
         "storage": ["storage": "sqlite", "version": "3"]]
    }

    /// Each collection's newest `srvModified` (its newest document's date), for those holding any.
    private func lastModified() async throws -> Response {
        var collections: [String: Any] = [:]
        for collection in NightscoutV3Documents.collections {
            var q = NightscoutV3Query()
            q.limit = 1
            let newest = try await NightscoutV3Reads(settings: settings, collection: collection).find(q).first
            if let ms = newest?["srvModified"] { collections[collection] = ms }
        }
        return NightscoutV3Reply.result(["srvDate": Int64(Date().timeIntervalSince1970 * 1000), "collections": collections])
    }
}
