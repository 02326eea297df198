import Foundation
import HTTPTypes
import Hummingbird
import JSONFormats

/// API v3's reads of a collection (cgm-remote-monitor `lib/api3/generic`): SEARCH `GET /{collection}`,
/// HISTORY `GET /{collection}/history/{lastModified}` (documents modified after it, oldest first,
/// with the newest `srvModified` as `ETag: W/"…"` — AndroidAPS reads its next start from it) and
/// READ `GET /{collection}/{identifier}`. Answers are v3's envelope: `{"status":200,"result":…}`.
struct NightscoutV3Reads {
    let settings: ServeSettings
    let collection: String

    func search(_ request: Request) async throws -> Response {
        let q = try NightscoutV3Query(request)
        return NightscoutV3Reply.result(try await find(q))
    }

    func history(_ request: Request, since: String) async throws -> Response {
        var q = NightscoutV3Query()
        q.limit = try NightscoutV3Query.limit(request.uri.queryParameters["limit"].map(String.init))
        q.oldestFirst = true
        do { try q.bound("srvModified", "gt", since) } catch { throw HTTPError(.badRequest, message: "Bad or missing Last-Modified header/parameter") }
        var docs = try await find(q)
        // Documents deleted since: `isValid: false` at the time of their deletion, after the page's
        // stored ones (a full page leaves them for the next, whose start is this page's newest).
        if docs.count < q.limit, let sinceMS = NightscoutInstant.milliseconds(since) {
            let deleted = try await NightscoutDeletion(settings: settings).deletedDocuments(collection, after: Self.floorSeconds(sinceMS) - 1)
            docs += deleted.filter { (($0["srvModified"] as? NSNumber)?.int64Value ?? 0) > sinceMS }.prefix(q.limit - docs.count)
        }
        var response = NightscoutV3Reply.result(docs)
        if let newest = docs.compactMap({ ($0["srvModified"] as? NSNumber)?.int64Value }).max() {
            response.headers[.eTag] = "W/\"\(newest)\""
            response.headers[.lastModified] = NightscoutV3Reply.httpDate(newest / 1000)
        }
        return response
    }

    func read(identifier: String) async throws -> Response {
        guard let doc = try await document(identifier) else {
            // A deleted document is Nightscout's `isValid: false` one: 410 Gone.
            let deleted = try await NightscoutDeletion(settings: settings).deletedDocuments(collection, after: .min)
            return NightscoutV3Reply.status(deleted.contains { $0["identifier"] as? String == identifier } ? .gone : .notFound)
        }
        return NightscoutV3Reply.result(doc)
    }

    /// The stored document an identifier names, nil when there is none.
    func document(_ identifier: String) async throws -> [String: Any]? {
        guard let second = NightscoutV3ID.second(of: identifier) else { return nil }
        var q = NightscoutV3Query()
        (q.fromUTC, q.toUTC) = (second, second + 1)
        return try await find(q).first { $0["identifier"] as? String == identifier }
    }

    private static func floorSeconds(_ ms: Int64) -> Int64 { ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000) }

    func find(_ q: NightscoutV3Query) async throws -> [[String: Any]] {
        let collection = self.collection, readLimit = NightscoutV3Documents.readLimit(q)
        // `type=sgv` (AndroidAPS's) reads that metric only.
        let types = q.filters.first { $0.field == "type" && $0.op == "eq" }.map { Set([$0.value]) }
        let rows = try await NightscoutRoutes(settings: settings).read { store, subject in
            try NightscoutV3Documents.rows(store, subject: subject, collection: collection, query: q, readLimit: readLimit, entryTypes: types)
        }
        return rows.map { NightscoutV3Documents.documents($0, collection: collection, query: q, readLimit: readLimit) } ?? []
    }
}

/// API v3's answers: the `{"status","result"}` envelope, and a bare status with a message for
/// errors (`{"status":400,"message":…}`), as `lib/api3/shared/operationTools.js` sends them.
enum NightscoutV3Reply {
    static func result(_ value: Any) -> Response { JSONBody.response(["status": 200, "result": value]) }

    static func status(_ status: HTTPResponse.Status, _ message: String? = nil, fields: [String: Any] = [:]) -> Response {
        var body = fields
        body["status"] = status.code
        if let message { body["message"] = message }
        return JSONBody.response(body, status: status)
    }

    static func httpDate(_ seconds: Int64) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
