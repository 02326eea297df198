import Foundation
import HealthPipeCLI
import Hummingbird
import SQLiteStore

/// Nightscout's food database (`lib/api/food`, `lib/server/food.js`), kept in the store
/// (`StoredFoods`, table `foods`): GET `/food` (every document, in the order first stored),
/// `/food/quickpicks` (`type` "quickpick" and `hidden` the text "false", by `position`, as its
/// MongoDB query), `/food/regular` (`type` "food"); writers POST documents (each a new one with a new
/// `_id` and `created_at` now), PUT them (replacing the document of its `_id`, a new one without),
/// DELETE `/food/<_id>` (answer `{}`). An `_id` that is not 24 hex digits is a 400, as Nightscout's.
struct NightscoutFood {
    let settings: ServeSettings

    func add(to router: Router<ServeContext>) {
        let v1 = "/api/v1/"
        for path in ["food", "food.json"] {
            router.get(RouterPath(v1 + path)) { _, _ in JSONBody.response(try await self.documents()) }
            router.post(RouterPath(v1 + path)) { request, context in try await self.write(request, context, replacing: false) }
            router.put(RouterPath(v1 + path)) { request, context in try await self.write(request, context, replacing: true) }
        }
        router.get(RouterPath(v1 + "food/quickpicks")) { _, _ in
            let picks = try await self.documents().filter { $0["type"] as? String == "quickpick" && $0["hidden"] as? String == "false" }
            return JSONBody.response(picks.enumerated().sorted { a, b in
                Self.position(a.element, before: b.element) ?? (a.offset < b.offset)
            }.map(\.element))
        }
        router.get(RouterPath(v1 + "food/regular")) { _, _ in
            JSONBody.response(try await self.documents().filter { $0["type"] as? String == "food" })
        }
        router.delete(RouterPath(v1 + "food/:id")) { _, context in
            let id = try context.parameters.require("id")
            guard Self.isObjectID(id) else { return Self.invalidID("Must be 24-character hex string. Got: " + id) }
            let settings = self.settings
            _ = try await StoreWork.write {
                try StoredFoods.delete(path: settings.database, subject: try UploadImport.subject(settings.subject, database: settings.database), id: id)
            }
            return JSONBody.response([String: Any]())
        }
    }

    /// The stored documents, in the order first stored.
    func documents() async throws -> [[String: Any]] {
        let texts = try await NightscoutRoutes(settings: settings).read { rows, subject in try rows.foods(subject: subject) } ?? []
        return texts.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// POST (`replacing` false: every document stored anew) or PUT (each replaces its `_id`'s).
    private func write(_ request: Request, _ context: ServeContext, replacing: Bool) async throws -> Response {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        let body = try NightscoutBody(Array(buffer.readableBytesView), contentType: request.headers[.contentType])
        var docs: [[String: Any]] = []
        for doc in body.documents {
            guard let object = doc as? [String: Any] else { throw HTTPError(.badRequest, message: "a food is a JSON object") }
            docs.append(object)
        }
        if let bad = docs.first(where: { $0["_id"] != nil && !Self.isObjectID($0["_id"] as? String ?? "") }) {
            return Self.invalidID((replacing ? "Must be 24-character hex string. Got: " : "Must be 24-character hex string or omit for auto-generation. Got: ")
                                  + "\(bad["_id"] ?? "")")
        }
        let now = Date()
        let stamp = ISO8601DateFormatter.string(from: now, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        for i in docs.indices {
            // POST: created now (Nightscout sets it before its upsert); PUT keeps a `created_at` it was sent.
            if !replacing || docs[i]["created_at"] == nil { docs[i]["created_at"] = stamp }
            if docs[i]["_id"] == nil { docs[i]["_id"] = Self.newID(now) }
        }
        let stored = try docs.map { (id: $0["_id"] as? String ?? "", json: String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)) }
        let settings = self.settings, seconds = Int64(now.timeIntervalSince1970)
        try await StoreWork.write {
            try StoredFoods.save(path: settings.database, subject: try UploadImport.subject(settings.subject, database: settings.database), stored, now: seconds)
        }
        return JSONBody.response(docs)
    }

    static func isObjectID(_ text: String) -> Bool { text.utf8.count == 24 && text.allSatisfy(\.isHexDigit) }

    /// A new ObjectId's shape: its second, then random digits.
    static func newID(_ now: Date) -> String {
        let seconds = String(UInt32(truncatingIfNeeded: Int64(now.timeIntervalSince1970)), radix: 16)
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 8 - seconds.count) + seconds + String(repeating: "0", count: 16 - random.count) + random
    }

    /// Nightscout's 400 for an `_id` that is not an ObjectId (`sendJSONStatus`).
    static func invalidID(_ description: String) -> Response {
        JSONBody.response(["status": 400, "message": "Invalid _id format", "description": description] as [String: Any], status: .badRequest)
    }

    /// MongoDB's ascending sort on `position`: numbers before texts, a missing one first; nil when equal.
    private static func position(_ a: [String: Any], before b: [String: Any]) -> Bool? {
        func rank(_ d: [String: Any]) -> (Int, Double, String) {
            switch d["position"] {
            case let n as NSNumber: return (1, n.doubleValue, "")
            case let s as String: return (2, 0, s)
            default: return (0, 0, "")
            }
        }
        let (x, y) = (rank(a), rank(b))
        if x.0 != y.0 { return x.0 < y.0 }
        if x.1 != y.1 { return x.1 < y.1 }
        if x.2 != y.2 { return x.2 < y.2 }
        return nil
    }
}
