import Foundation

/// What the Nightscout tests share: a server with a secret, uploads as the uploaders send them, and
/// the store read with the sqlite3 shell (the same rows whatever wrote them).
enum NightscoutSupport {
    static let secret = ServeSecurityTests.secret
    static let hash = ServeSecurityTests.hash
    static let fixtures = ServeProcess.packageRoot.appendingPathComponent("Tests/Fixtures")

    static func database() -> String { ServeProcess.tempDir().appendingPathComponent("h.sqlite").path }

    static func server(_ db: String, _ extra: [String] = []) throws -> ServeProcess {
        try ServeProcess(["--db", db] + extra, environment: ["API_SECRET": secret])
    }

    static func send(_ server: ServeProcess, _ path: String, _ body: Data, method: String = "POST",
                     headers: [String: String] = ["api-secret": hash, "Content-Type": "application/json"]) throws -> HTTPExchange {
        try HTTPExchange.send(server.base + path, method: method, headers: headers, body: body)
    }

    static func get(_ server: ServeProcess, _ pathAndQuery: String) throws -> [[String: Any]] {
        let r = try HTTPExchange.send(server.base + pathAndQuery, headers: ["api-secret": hash])
        guard r.status == 200, let docs = r.json as? [[String: Any]] else { throw ServeTestError("GET \(pathAndQuery): \(r.status) \(r.text)") }
        return docs
    }

    /// Every stored reading, event and daily row (without where each came from), sorted: equal
    /// snapshots are equal stores.
    static func snapshot(_ db: String) throws -> String {
        try sqlite(db, """
            SELECT 'm', subject, metric, source, start, "end", utc_offset, value, unit, flags, band, metadata FROM measurements
            UNION ALL SELECT 'e', subject, kind, subtype, source, start, "end", utc_offset, carbs_g, insulin_u, note, metadata FROM events
            UNION ALL SELECT 'd', subject, day, metric, unit, n, mean, min, max, NULL, NULL, NULL FROM daily_summaries
            ORDER BY 1, 2, 3, 4, 5, 6
            """)
    }

    static func sqlite(_ db: String, _ sql: String) throws -> String {
        let p = Process(), out = Pipe()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [db, sql]
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// `healthpipe import` of a file, as a person would run it.
    static func importFile(_ path: String, into db: String, _ extra: [String] = []) throws -> Int32 {
        let p = Process()
        p.executableURL = ServeProcess.binary
        p.arguments = ["import", path, "--db", db, "--format", "nightscout", "--quiet"] + extra
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}
