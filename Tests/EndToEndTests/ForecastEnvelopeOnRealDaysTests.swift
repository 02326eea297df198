import Foundation
import Testing

/// Issue 36: on a real Loop day one noisy 5-minute step (164 → 141 mg/dL) drove the ridge forecast
/// down 9 mg/dL a minute into a severe low. Real exports — Nightscout uploads (a Loop capture and
/// 1,000 real entries), CareLink pump/sensor files, Dexcom Clarity exports — are imported, every
/// forecast every model issues is stored (`reaggregate` with `issue: every`) and every day is
/// charted: no stored or drawn point lies further than 4 mg/dL a minute from the reading it was
/// issued at, or outside 40–400 mg/dL (`ForecastEnvelope`, docs/prediction.md).
@Suite struct ForecastEnvelopeOnRealDaysTests {
    struct Export: Sendable, CustomStringConvertible {
        var path: String
        var extra: [String]
        var description: String { URL(fileURLWithPath: path).lastPathComponent }
    }

    static let real = E2E.fixtures.appendingPathComponent("real")
    static let exports: [Export] = [
        Export(path: real.appendingPathComponent("nightscout/nightscout-loop-entries.json").path,
               extra: [real.appendingPathComponent("nightscout/nightscout-loop-treatments.json").path, "--timezone", "Europe/Berlin"]),
        Export(path: E2E.samples.appendingPathComponent("nightscout/cgm_format_nightscout_entries.json").path, extra: ["--timezone", "UTC"]),
        Export(path: E2E.samples.appendingPathComponent("medtronic-carelink/cgm_format_medtronics_test_livia_TRIMMED.csv").path,
               extra: ["--timezone", "Europe/Bucharest"]),
        Export(path: real.appendingPathComponent("carelink/carelink-en-780g-mmol.csv").path, extra: ["--timezone", "Australia/Sydney"]),
        Export(path: real.appendingPathComponent("carelink/carelink-en-guardian-connect-eu.csv").path, extra: ["--timezone", "Europe/Bucharest"]),
        Export(path: E2E.samples.appendingPathComponent("dexcom-clarity/cgmquantify_test_file.csv").path, extra: ["--timezone", "UTC"]),
        Export(path: real.appendingPathComponent("clarity/clarity-en-g7-mgdl.csv").path, extra: ["--timezone", "Europe/Kyiv"]),
    ]
    static let models = ["ridge", "ridge-treatments", "ar2"]
    /// mg/dL a minute; the drawn values are rounded to whole mg/dL (1 more allowed there).
    static let rate = 4.0

    /// The break of the envelope a point makes, or nil: `minutes` after a reading of `origin`.
    static func breach(origin: Double, minutes: Double, value: Double, slack: Double = 1e-9) -> String? {
        if value < 40 - slack || value > 400 + slack { return "\(value) outside 40–400" }
        if abs(value - origin) > rate * minutes + slack { return "\(origin) → \(value) in \(minutes) min" }
        return nil
    }

    @Test(arguments: exports)
    func storedAndDrawnForecastsMoveNoFasterThanGlucoseCan(export: Export) throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try E2E.run(["import", export.path] + export.extra + ["--db", db.path, "--quiet",
                                                                      "--quarantine", dir.appendingPathComponent("q.ndjson").path])
        #expect([0, 3].contains(r.code), "\(r.stderr)")
        let (first, last) = (E2E.scalar(db, "SELECT min(day) FROM daily_summaries"), E2E.scalar(db, "SELECT max(day) FROM daily_summaries"))
        var stored = 0, drawn = 0
        for model in Self.models {
            let settings = dir.appendingPathComponent("settings.yml")
            try E2E.write("predict: { model: \(model), horizon: 60m, issue: every }\nalerts: { model: \(model) }\n", to: settings)
            let re = try E2E.run(["reaggregate", "--db", db.path, "--config", settings.path])
            #expect(re.code == 0, "\(re.stderr)")
            // Each stored point against the reading it was issued at (one reading per instant in these files).
            let rows = E2E.query(db, """
                SELECT f.issued_at, f.at, f.value, (SELECT min(m.value) FROM measurements m WHERE m.subject = f.subject
                  AND m.metric = 'glucose' AND m.start = f.issued_at), (SELECT max(m.value) FROM measurements m
                  WHERE m.subject = f.subject AND m.metric = 'glucose' AND m.start = f.issued_at)
                FROM forecasts f WHERE f.model = '\(model)'
                """)
            for row in rows {
                let n = row.map { Double($0) ?? .nan }
                #expect(n[3] == n[4], "\(export) \(model): two readings at \(row[0])")
                if let b = Self.breach(origin: n[3], minutes: (n[1] - n[0]) / 60, value: n[2]) {
                    Issue.record("\(export) \(model) stored, issued at \(row[0]): \(b)")
                }
            }
            stored += rows.count
            // Each day's drawn forecast (from the day's last reading).
            let chart = try E2E.run(["chart", "day", "--db", db.path, "--from", first, "--to", last, "--unit", "mg/dL", "--model", model])
            #expect(chart.code == 0, "\(chart.stderr)")
            for line in chart.stdout.split(separator: "\n") {
                let view = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                guard let f = view["forecast"] as? [String: Any] else { continue }
                let origin = try #require(f["value"] as? Double), start = try #require(f["minute"] as? Double)
                for p in try #require(f["points"] as? [[String: Any]]) {
                    let value = try #require(p["value"] as? Double), minute = try #require(p["minute"] as? Double)
                    if let b = Self.breach(origin: origin, minutes: minute - start, value: value, slack: 1) {
                        Issue.record("\(export) \(model) drawn on \(view["date"] ?? ""): \(b)")
                    }
                    drawn += 1
                }
            }
        }
        // Forecasts are still made: the envelope keeps what physiology allows, it does not empty the tables.
        #expect(stored > 0 && drawn > 0, "\(export): \(stored) stored, \(drawn) drawn points")
    }
}
