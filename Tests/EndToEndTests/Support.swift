import CSQLite
import Foundation
import HealthPipeTestSupport

/// Paths and helpers shared by the end-to-end tests, which run the real `healthpipe` binary on real files.
enum E2E {
    static let packageRoot = Repository.root
    static let samples = packageRoot.appendingPathComponent("samples")
    /// Reference data copied into the repository (see Tests/Fixtures/PROVENANCE.md).
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")

    static var binary: URL {
        // Another build to run the same tests against (e.g. to see a test fail on older code).
        if let other = ProcessInfo.processInfo.environment["HEALTHPIPE_BINARY"] { return URL(fileURLWithPath: other) }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("healthpipe")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        for config in ["debug", "release"] {
            let u = packageRoot.appendingPathComponent(".build/\(config)/healthpipe")
            if FileManager.default.isExecutableFile(atPath: u.path) { return u }
        }
        return beside
    }

    /// The exit status of importing each bundled sample the tests import in loops: 3 where the sample
    /// holds a row that is quarantined (a t:connect row, a Loop treatment, a Tidepool datum the tool
    /// refuses on purpose), else 0 — exact, so a sample that starts losing rows fails its test.
    static func importExit(ofSample path: String) -> Int32 {
        ["tandem/tconnect_therapy_timeline.csv", "nightscout/nightscout_treatments_loop.json", "tidepool/tidepool_export.json"]
            .contains { path.hasSuffix($0) } ? 3 : 0
    }

    static func tempDir() -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("hp-e2e-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    struct Result {
        var code: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs healthpipe and waits for it.
    @discardableResult
    static func run(_ args: [String], cwd: URL? = nil, env: [String: String] = [:]) throws -> Result {
        try run(program: binary, args, cwd: cwd, env: env)
    }

    /// Runs any program and waits for it.
    static func run(program: URL, _ args: [String], cwd: URL? = nil, env: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = program
        p.arguments = args
        if let cwd { p.currentDirectoryURL = cwd }
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Both pipes are drained at once: a child that fills one (64 KB of stderr) while the test waits on
        // the other would never finish.
        let stderrText = PipeDrain(err.fileHandleForReading)
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = stderrText.wait()
        p.waitUntilExit()
        return Result(code: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// Runs a query and returns rows of text cells (NULL as "NULL").
    static func query(_ db: URL, _ sql: String) -> [[String]] {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(db.path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return [] }
        defer { sqlite3_close(handle) }
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &stmt, nil) == SQLITE_OK else {
            return [["ERROR: " + String(cString: sqlite3_errmsg(handle))]]
        }
        defer { sqlite3_finalize(stmt) }
        var rows: [[String]] = []
        while sqlite3_step(stmt) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(stmt)).map { i in
                sqlite3_column_type(stmt, i) == SQLITE_NULL ? "NULL" : String(cString: sqlite3_column_text(stmt, i))
            })
        }
        return rows
    }

    static func scalar(_ db: URL, _ sql: String) -> String { query(db, sql).first?.first ?? "" }
    static func count(_ db: URL, _ table: String, _ filter: String = "1") -> Int { Int(scalar(db, "SELECT count(*) FROM \(table) WHERE \(filter)")) ?? -1 }

    static func write(_ text: String, to url: URL) throws { try Data(text.utf8).write(to: url) }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// The pipe's bytes, once its writer closed it.
    func wait() -> Data {
        done.wait()
        return data
    }
}
