import CSQLite
import Foundation

/// The store the chart tests read: the real Dexcom Clarity sample (14 days of G6 readings with
/// fast- and long-acting insulin, samples/dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv)
/// imported as `healthpipe import` does, plus what a diary app writes beside it: named meals with
/// protein and fat, exercise with intensity, a stress episode and favourites (Clarity carries
/// carbs only). Built once per test run; tests only read it.
enum ChartFixture {
    static let subject = "demo"
    /// A day in the middle: three days of readings on each side.
    static let day = "1961-04-20"
    static let firstDay = "1961-04-12", lastDay = "1961-04-25"

    struct Failure: Error, CustomStringConvertible { var description: String }

    static let database: Result<URL, Failure> = {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("charts.sqlite")
        do {
            let r = try E2E.run(["import", E2E.samples.appendingPathComponent("dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv").path,
                                 "--db", db.path, "--timezone", "Europe/London", "--subject", subject])
            guard r.code == 0 else { return .failure(Failure(description: "import failed: \(r.stderr)")) }
            // 1961-04 in London: British Summer Time, UTC+01:00.
            func at(_ local: String) -> String { "strftime('%s','\(local)')-3600" }
            try exec(db, """
                INSERT INTO events (subject, kind, subtype, source, start, amount, "end", utc_offset, carbs_g, protein_g, fat_g, intensity, note) VALUES
                 ('demo','meal','','diary',\(at("1961-04-20 07:40")),45,\(at("1961-04-20 07:40")),3600,45,12,8,NULL,'Porridge with berries'),
                 ('demo','meal','','diary',\(at("1961-04-20 12:50")),52,\(at("1961-04-20 12:50")),3600,52,28,14,NULL,'Chicken sandwich'),
                 ('demo','meal','','diary',\(at("1961-04-20 18:35")),78,\(at("1961-04-20 18:35")),3600,78,30,22,NULL,'Pasta & "sauce" <home>'),
                 ('demo','exercise','cycling','diary',\(at("1961-04-20 08:30")),0,\(at("1961-04-20 09:15")),3600,NULL,NULL,NULL,'medium',NULL),
                 ('demo','exercise','running','diary',\(at("1961-04-22 17:10")),0,\(at("1961-04-22 17:55")),3600,NULL,NULL,NULL,'heavy',NULL),
                 ('demo','episode','stress','diary',\(at("1961-04-20 09:00")),0,\(at("1961-04-21 18:00")),3600,NULL,NULL,NULL,NULL,NULL);
                INSERT INTO favourites (subject, day, note, created_at) VALUES ('demo','1961-04-19','steady day',0), ('demo','1961-04-23',NULL,0);
                """)
            // Daily summaries are derived: re-aggregate so they see the diary's exercise and stress.
            let re = try E2E.run(["reaggregate", "--db", db.path])
            guard re.code == 0 else { return .failure(Failure(description: "reaggregate failed: \(re.stderr)")) }
            return .success(db)
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }()

    static func db() throws -> URL { try database.get() }

    static func exec(_ db: URL, _ sql: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(db.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else { throw Failure(description: "cannot open \(db.path)") }
        defer { sqlite3_close(handle) }
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw Failure(description: message.map { String(cString: $0) } ?? "sqlite3_exec failed")
        }
    }

    /// Local-day condition on `start`/`utc_offset` for SQL.
    static func onDay(_ day: String) -> String { "date(start + utc_offset, 'unixepoch') = '\(day)'" }

    /// Parsed JSON (tests only).
    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    static func day(_ iso: String, plus n: Int) -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd"
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: f.date(from: iso)!.addingTimeInterval(Double(n) * 86_400))
    }
}
