import Foundation
@testable import HealthPipeServe

/// AndroidAPS's NSClientV3 as it talks to a server (`core/nssdk`: NSAuthInterceptor,
/// NightscoutRemoteService): an access token traded for a JWT, then `Authorization: Bearer` on every
/// request to `/api/v3/…`.
struct AAPSClient {
    typealias S = NightscoutSupport
    let server: ServeProcess
    var jwt = ""

    static func accessToken(_ name: String = "aaps", role: AccessRole = .write) throws -> String {
        try APISecret(S.secret).token(name: name, role: role)
    }

    /// `GET /api/v2/authorization/request/<token>`: the JWT, kept for the next requests.
    mutating func authorize(_ accessToken: String) throws -> HTTPExchange {
        let r = try HTTPExchange.send(server.base + "/api/v2/authorization/request/" + accessToken)
        if let token = (r.json as? [String: Any])?["token"] as? String { jwt = token }
        return r
    }

    func send(_ path: String, method: String = "GET", body: Data? = nil) throws -> HTTPExchange {
        var headers = ["Authorization": "Bearer \(jwt)", "Date": String(Int64(Date().timeIntervalSince1970 * 1000))]
        if body != nil { headers["Content-Type"] = "application/json; charset=UTF-8" }
        return try HTTPExchange.send(server.base + path, method: method, headers: headers, body: body)
    }

    /// A v3 answer's `result`.
    func result(_ path: String) throws -> Any? {
        let r = try send(path)
        guard r.status == 200, let object = r.json as? [String: Any], object["status"] as? Int == 200 else {
            throw ServeTestError("GET \(path): \(r.status) \(r.text)")
        }
        return object["result"]
    }

    func documents(_ path: String) throws -> [[String: Any]] {
        guard let docs = try result(path) as? [[String: Any]] else { throw ServeTestError("GET \(path): not a list") }
        return docs
    }

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: S.fixtures.appendingPathComponent("nightscout-uploads/" + name))
    }
}
