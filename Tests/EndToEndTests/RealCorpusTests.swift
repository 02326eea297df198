import Foundation
import Testing

/// The corpus of real exports written by vendors' software (Tests/Fixtures/real/README.md): every
/// file imports by content, stores exactly what an independent counter says, and imports again as
/// nothing new.
@Suite struct RealCorpusTests {
    static let root = E2E.fixtures.appendingPathComponent("real")

    /// One file of a vendor folder's expected.json.
    struct Case: CustomTestStringConvertible, Sendable {
        var folder: String
        var file: String
        var vendor: String
        var language: String
        var format: String
        var timezone: String?
        var measurements: [String: Total]
        var events: [String: Total]
        /// Rows the vendor wrote without a value (Lingo's "Out of range"): quarantined with the reason, exit 3.
        var quarantined = 0
        var testDescription: String { "\(folder)/\(file)" }
    }

    struct Total: Equatable, Sendable, CustomStringConvertible {
        var count: Int
        var sum: Double?
        var description: String { sum.map { "\(count) rows, sum \($0)" } ?? "\(count) rows" }
    }

    static func cases() -> [Case] {
        let fm = FileManager.default
        let folders = ((try? fm.contentsOfDirectory(atPath: root.path)) ?? []).sorted()
        var out: [Case] = []
        for folder in folders {
            let url = root.appendingPathComponent(folder).appendingPathComponent("expected.json")
            guard let data = fm.contents(atPath: url.path),
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let files = json["files"] as? [[String: Any]] else { continue }
            for f in files {
                out.append(Case(folder: folder, file: f["file"] as? String ?? "?", vendor: f["vendor"] as? String ?? "?",
                                language: f["language"] as? String ?? "?", format: f["format"] as? String ?? "?",
                                timezone: f["timezone"] as? String,
                                measurements: totals(f["measurements"]), events: totals(f["events"]),
                                quarantined: (f["quarantined"] as? NSNumber)?.intValue ?? 0))
            }
        }
        return out
    }

    static func totals(_ any: Any?) -> [String: Total] {
        var out: [String: Total] = [:]
        for (k, v) in (any as? [String: [String: Any]]) ?? [:] {
            out[k] = Total(count: (v["count"] as? NSNumber)?.intValue ?? -1, sum: (v["sum"] as? NSNumber)?.doubleValue)
        }
        return out
    }

    /// The bar for the corpus: at least 40 files from 12 vendors in 8 languages.
    @Test func corpusIsLargeAndVaried() {
        let all = Self.cases()
        // A vendor is a corpus folder (one vendor's software), not the uploader named inside a file.
        let vendors = Set(all.map(\.folder)), languages = Set(all.map(\.language))
        #expect(all.count >= 40, "\(all.count) files")
        #expect(vendors.count >= 12, "\(vendors.sorted())")
        #expect(languages.count >= 8, "\(languages.sorted())")
    }

    @Test func expectedCountsComeFromTheIndependentCounters() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", Self.root.appendingPathComponent("check_expected.py").path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(text)")
    }

    @Test(arguments: cases())
    func importsWholeByContent(_ c: Case) throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = Self.root.appendingPathComponent(c.folder).appendingPathComponent(c.file)
        var args = ["import", file.path, "--db", db.path, "--quarantine", dir.appendingPathComponent("q.ndjson").path]
        if let tz = c.timezone { args += ["--timezone", tz] }
        let r = try E2E.run(args)
        #expect(r.code == (c.quarantined > 0 ? 3 : 0), "\(c.file): exit \(r.code)\n\(r.stderr)")
        #expect(E2E.scalar(db, "SELECT group_concat(format) FROM imports") == c.format)
        #expect(E2E.scalar(db, "SELECT sum(rejected) FROM imports") == String(c.quarantined))

        let measured = Self.stored(db, "SELECT metric, count(*), sum(value) FROM measurements WHERE import_id IS NOT NULL GROUP BY metric")
        let events = Self.stored(db, """
            SELECT kind, count(*), CASE kind WHEN 'insulin' THEN sum(insulin_u) WHEN 'meal' THEN sum(carbs_g) END
            FROM events GROUP BY kind
            """)
        Self.expectSame(measured, c.measurements, "\(c.file) measurements")
        Self.expectSame(events, c.events, "\(c.file) events")

        let again = try E2E.run(args)
        #expect(again.code == (c.quarantined > 0 ? 3 : 0), "\(c.file) second import: \(again.stderr)")
        #expect(E2E.scalar(db, "SELECT sum(new_rows) FROM imports") == "0", "\(c.file): a second import added rows")
    }

    static func stored(_ db: URL, _ sql: String) -> [String: Total] {
        var out: [String: Total] = [:]
        for row in E2E.query(db, sql) where row.count == 3 {
            out[row[0]] = Total(count: Int(row[1]) ?? -1, sum: Double(row[2]))
        }
        return out
    }

    /// Counts equal; sums equal to a part in 10⁹ (SQLite and Python add in different orders).
    static func expectSame(_ got: [String: Total], _ want: [String: Total], _ what: String) {
        #expect(Set(got.keys) == Set(want.keys), "\(what): stored \(got), expected \(want)")
        for (k, w) in want {
            guard let g = got[k] else { continue }
            #expect(g.count == w.count, "\(what) \(k): stored \(g), expected \(w)")
            if let ws = w.sum {
                let gs = g.sum ?? 0
                #expect(abs(gs - ws) <= max(1e-9 * abs(ws), 1e-6), "\(what) \(k): stored \(g), expected \(w)")
            }
        }
    }
}
