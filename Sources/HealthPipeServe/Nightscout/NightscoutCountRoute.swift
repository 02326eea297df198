import Foundation
import Hummingbird

/// `GET /api/v1/count/STORAGE/where?find[…]`: how many documents of `entries`, `treatments` or
/// `devicestatus` (any other name: entries, as Nightscout's `prep_storage`) a query finds, answered
/// as Nightscout's aggregate answers it — `[{"_id": null, "count": N}]`, and `[]` when none match.
/// The query is the API's (`NightscoutFind`: without a time condition, the last 4 days); `count` does
/// not limit it (a count has no page), at most `NightscoutFind.maxCount` are counted.
struct NightscoutCountRoute {
    static let path = "/api/v1/count/:storage/where"
    let routes: NightscoutRoutes

    func add(to router: Router<ServeContext>) {
        router.get(RouterPath(Self.path)) { request, context in
            try await self.answer(request, storage: try context.parameters.require("storage"))
        }
    }

    private func answer(_ request: Request, storage: String) async throws -> Response {
        var find = try NightscoutFind(request, defaultCount: NightscoutFind.maxCount)
        find.count = NightscoutFind.maxCount
        let n: Int
        switch storage {
        case "treatments": n = try await routes.treatmentDocuments(find).count
        case "devicestatus": n = try await routes.deviceStatusDocuments(find).count
        default: n = try await routes.entryDocuments(find, type: nil).count
        }
        return JSONBody.response(n == 0 ? [] : [["_id": NSNull(), "count": n]] as [Any])
    }
}
