import Foundation
import HealthPipeTestSupport
import Testing

/// The app and the Nightscout API over a database an older release wrote: `serve` opens it as it is
/// (an upload would migrate it; a reader never does), so every screen and every read route answers
/// there as it does on this release's store — the same status, never a 500 for a column or table
/// the older version lacks. The commands: OlderDatabaseReadTests.
@Suite struct OlderDatabaseServeTests {
    static let day = OlderSchemaStores.day
    static let routes = ["/", "/day/\(day)", "/agp", "/days", "/reports", "/settings", "/now", "/api/v1/food",
                         "/api/v1/slice/entries/dateString/sgv/2013-08-08.json",
                         "/api/v1/entries.json", "/api/v1/entries/sgv.json?count=10", "/api/v1/treatments.json", "/api/v1/devicestatus.json",
                         "/api/v1/profile.json", "/api/v1/status.json", "/api/v1/count/entries/where", "/pebble", "/api/v2/properties",
                         "/api/v3/entries?limit=5", "/api/v3/treatments?limit=5"]

    static let current: Result<URL, any Error> = Result {
        let db = ServeProcess.tempDir().appendingPathComponent("current.sqlite")
        try OlderSchemaStores.writeCurrent(at: db) { args in
            let r = AppDatabase.run(ServeProcess.binary.path, args, environment: ["TZ": "UTC"])
            return (r.code, r.output)
        }
        return db
    }

    /// Each route's status over this release's store, asked once.
    static let currentStatuses: Result<[String: Int], any Error> = Result { try statuses(try current.get()).statuses }

    /// Each route's status over `db` (a server without a secret, reads open to loopback).
    static func statuses(_ db: URL) throws -> (statuses: [String: Int], log: String) {
        let server = try ServeProcess(["--db", db.path, "--open-reads"])
        var out: [String: Int] = [:]
        for route in routes { out[route] = try HTTPExchange.send(server.base + route).status }
        _ = server.stop()
        return (out, server.stderr)
    }

    @Test(arguments: OlderSchemaStores.versions) func everyScreenAndReadRouteAnswersOnAnOlderDatabase(version: Int32) throws {
        let current = try Self.current.get()
        let db = ServeProcess.tempDir().appendingPathComponent("v\(version).sqlite")
        try OlderSchemaStores.copy(current, atVersion: version, to: db)
        let now = try Self.currentStatuses.get()
        let (older, log) = try Self.statuses(db)
        #expect(now.values.allSatisfy { $0 == 200 }, "this release's store: \(now.filter { $0.value != 200 })")
        for route in Self.routes {
            #expect(older[route] == now[route], "v\(version) \(route): \(older[route] ?? 0), this release's store \(now[route] ?? 0)\n\(log)")
        }
    }
}
