import Foundation
import Testing

/// The health-log commands as a person types them: every call names the database and the zone
/// the typed times are in (Europe/Rome, UTC+1 in March).
struct HealthLog {
    let db: URL
    let dir: URL

    init() {
        dir = E2E.tempDir()
        db = dir.appendingPathComponent("health.sqlite")
    }

    /// The commands that read times take the zone; the views (chart, page) do not.
    @discardableResult
    func run(_ args: [String]) throws -> E2E.Result {
        let views = ["chart", "page"].contains(args.first ?? "")
        return try E2E.run(args + ["--db", db.path] + (views ? [] : ["--timezone", "Europe/Rome"]))
    }

    /// Runs and expects exit 0.
    @discardableResult
    func ok(_ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> E2E.Result {
        let r = try run(args)
        #expect(r.code == 0, "\(args): \(r.stderr)", sourceLocation: sourceLocation)
        return r
    }

    func report(_ at: String, _ values: [String], note: String? = nil) throws {
        try ok(["reports", "add", "--at", at] + values.flatMap { ["--value", $0] } + (note.map { ["--note", $0] } ?? []))
    }

    /// The settings file's text stored with `reaggregate --config`.
    func settings(_ yaml: String) throws {
        let file = dir.appendingPathComponent("settings-\(UUID().uuidString).yml")
        try E2E.write(yaml, to: file)
        let r = try E2E.run(["reaggregate", "--db", db.path, "--config", file.path, "--quiet"])
        #expect(r.code == 0, "\(r.stderr)")
    }

    func query(_ sql: String) -> [[String]] { E2E.query(db, sql) }
    func scalar(_ sql: String) -> String { E2E.scalar(db, sql) }

    /// JSON lines of stdout.
    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    /// The derived rows equal those of a clean re-aggregation of a copy.
    func expectExact(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let copy = dir.appendingPathComponent("clean-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: db, to: copy)
        let r = try E2E.run(["reaggregate", "--db", copy.path, "--quiet"])
        #expect(r.code == 0, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(E2E.count(db, "derived_pending") == 0, sourceLocation: sourceLocation)
        #expect(DerivedSnapshot(db).difference(from: DerivedSnapshot(copy)) == nil, sourceLocation: sourceLocation)
    }
}
