import Foundation
import Testing

/// `healthpipe stream` and `healthpipe history` on the committed IMU captures (samples/imu).
@Suite struct MotionStreamTests {
    let capture = E2E.samples.appendingPathComponent("imu/brushing_stream_tms.csv").path

    func replay(into db: URL, extra: [String] = []) throws -> E2E.Result {
        try E2E.run(["stream", "--replay", capture, "--start", "2026-01-05T07:30:00Z", "--db", db.path, "--timezone", "UTC"] + extra)
    }

    @Test func replayStoresTheSessionsOnceAndQuarantinesTheNoise() throws {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("brushing.sqlite")
        let chart = dir.appendingPathComponent("chart.json")
        let first = try replay(into: db, extra: ["--chart", chart.path])
        #expect(first.code == 3, "\(first.stderr)")
        #expect(first.stderr.contains("session 2026-01-05 07:30:05"))
        #expect(first.stderr.contains("session 2026-01-05 07:31:00"))
        #expect(E2E.query(db, "SELECT time, day_of_week, days_in_month, end_reason, round(duration_s) FROM motion_sessions ORDER BY start") == [
            ["07:30:05", "1", "31", "idle", "40.0"], ["07:31:00", "1", "31", "idle", "25.0"],
        ])
        let quarantine = try String(contentsOf: dir.appendingPathComponent("brushing.quarantine.ndjson"), encoding: .utf8)
        #expect(quarantine.split(separator: "\n").count == 2)
        #expect(quarantine.contains("\"line\":1002"))
        let chartJSON = try String(contentsOf: chart, encoding: .utf8)
        #expect(chartJSON.contains("\"from\":\"2026-01-05\"") && chartJSON.contains("\"sessions\":2"))
        // Replaying the same capture again adds nothing.
        _ = try replay(into: db)
        #expect(E2E.count(db, "motion_sessions") == 2)
        // A replay is an input like any file (even with --start): its size and hash are logged, and
        // its sessions name the import they came from.
        let size = try FileManager.default.attributesOfItem(atPath: capture)[.size] as! Int
        let logged = E2E.query(db, "SELECT id, size, length(hash), format FROM imports WHERE path = '\(capture)'")
        #expect(logged.count == 1 && logged.first?[1] == "\(size)" && logged.first?[2] == "16" && logged.first?[3] == "serial-imu", "\(logged)")
        #expect(E2E.query(db, "SELECT DISTINCT import_id FROM motion_sessions") == [[logged.first?[0] ?? "?"]])
    }

    @Test func historyNavigatesWeeksMonthsAndYearsWithEmptyPeriods() throws {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("brushing.sqlite")
        _ = try replay(into: db)
        let week = try E2E.run(["history", "--db", db.path, "--period", "week", "--today", "2026-01-07", "--timezone", "UTC", "--json"])
        #expect(week.code == 0, "\(week.stderr)")
        #expect(week.stdout.contains("\"empty\":false,\"sessions\":2"))
        #expect(week.stdout.contains("{\"label\":\"Mon\",\"from\":\"2026-01-05\",\"to\":\"2026-01-05\",\"sessions\":2"))
        let before = try E2E.run(["history", "--db", db.path, "--period", "week", "--offset", "-1", "--today", "2026-01-07", "--json"])
        #expect(before.code == 0)
        #expect(before.stdout.contains("\"from\":\"2025-12-29\"") && before.stdout.contains("\"empty\":true"))
        let lastYear = try E2E.run(["history", "--db", db.path, "--period", "year", "--offset", "-1", "--today", "2026-01-07"])
        #expect(lastYear.code == 0)
        #expect(lastYear.stdout.contains("2025") && lastYear.stdout.contains("no sessions"))
        let month = try E2E.run(["history", "--db", db.path, "--period", "month", "--today", "2026-01-07"])
        #expect(month.stdout.contains("Jan 2026 (2026-01-01 – 2026-01-31): 2 sessions"))
        let missing = try E2E.run(["history", "--db", dir.appendingPathComponent("nope.sqlite").path])
        #expect(missing.code == 1)
        let badPeriod = try E2E.run(["history", "--db", db.path, "--period", "fortnight"])
        #expect(badPeriod.code == 2)
    }

    @Test func pipelineFileWithTheBrushSessionAliasAndHistoryChart() throws {
        let dir = E2E.tempDir()
        let yaml = dir.appendingPathComponent("brush.yaml")
        try E2E.write("""
            sources:
              imu: { type: serial-imu, path: '\(E2E.samples.appendingPathComponent("imu/imu_capture_gestures.csv").path)',
                     start: '2026-01-05T07:30:00Z', gesture_gap: 0.5 }
            transforms:
              sessions: { type: brush-session, inputs: [imu], target: 0, idle: 2, timezone: UTC }
            sinks:
              chart: { type: history-chart, inputs: [sessions], path: chart.json, period: month }
              db: { type: sqlite, inputs: [sessions], path: b.sqlite }
            """, to: yaml)
        let r = try E2E.run(["run", yaml.path])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.query(dir.appendingPathComponent("b.sqlite"), "SELECT samples, end_reason FROM motion_sessions") == [["1547", "end"]])
        let chart = try String(contentsOf: dir.appendingPathComponent("chart.json"), encoding: .utf8)
        #expect(chart.contains("\"period\":\"month\"") && chart.contains("\"sessions\":1"))
        let plugins = try E2E.run(["plugins"])
        for name in ["serial-imu", "motion-session", "brush-session", "history-chart", "session-bar"] {
            #expect(plugins.stdout.contains("  \(name)  ["))
        }
    }
}
