import Foundation
import Testing

/// The app in a real browser: headless Chromium, driven by Playwright (Browser/app_walkthrough.py),
/// clicks through a database of more than three years — days by the picker, arrows and keys, insulin
/// by the form, a star, the illness switch, a report created, changed and deleted, the reminder
/// snoozed, the bands setting, the stored reminder time and a threshold changed on /settings (`alerts
/// set`), a meal from the CLI beside the server shown live — and takes
/// screenshots at desktop and phone width (kept in the directory the test prints).
@Suite(.serialized) struct AppBrowserTests {
    static let script = ServeProcess.packageRoot.appendingPathComponent("Tests/ServeTests/Browser/app_walkthrough.py")

    /// Skips where the browser or Playwright is missing (scripts/setup.sh installs both).
    static var browserReady: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") && AppDatabase.run("/usr/bin/env", ["python3", "-c", "import playwright"]).code == 0
    }

    @Test(.enabled(if: browserReady)) func aPatientClicksThroughTheApp() throws {
        let db = try AppDatabase.threeYears()
        let server = try ServeProcess(["--db", db.path])
        defer { _ = server.stop() }
        let shots = ServeProcess.tempDir().appendingPathComponent("screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let run = AppDatabase.run("/usr/bin/env", ["python3", Self.script.path, server.base, db.path, ServeProcess.binary.path, shots.path],
                                  environment: ["LAST_DAY": AppDatabase.isoDay(AppDatabase.lastDay)])
        print("screenshots: \(shots.path)")
        #expect(run.code == 0, "walkthrough failed: \(run.output)\nserver: \(server.stderr)")
        #expect(run.output.contains("ok"))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: shots.path)) ?? []
        for name in ["desktop-day", "desktop-days", "desktop-reports", "desktop-agp", "desktop-settings", "phone-day", "phone-reports", "phone-settings"] {
            #expect(names.contains(name + ".png"), "no screenshot \(name)")
        }
    }
}

/// A database spanning more than three years, generated: glucose every 30 minutes (every 5 on the
/// last two weeks) as a Nightscout entries CSV, imported by the real binary; the report reminder at
/// 00:01, so it is due whenever the test runs.
enum AppDatabase {
    /// Yesterday in this zone: the app's "latest day", with today free for the reports' reminder.
    static var lastDay: Date { Calendar.current.date(byAdding: .day, value: -1, to: Calendar.current.startOfDay(for: Date()))! }
    static let days = 3 * 366 + 30

    static func isoDay(_ d: Date) -> String {
        let c = Calendar.current.dateComponents([.year, .month, .day], from: d)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    static func threeYears() throws -> URL {
        let dir = ServeProcess.tempDir()
        let csv = dir.appendingPathComponent("entries.csv"), db = dir.appendingPathComponent("health.sqlite")
        let end = lastDay.addingTimeInterval(86_400 - 60)
        var t = Calendar.current.startOfDay(for: lastDay).addingTimeInterval(-Double(days) * 86_400)
        var lines: [String] = []
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var i = 0
        while t <= end {
            let hour = Double(Calendar.current.component(.hour, from: t))
            // A day's shape: low at night, a rise after meals, some noise by the index.
            let mgdl = Int(120 + 60 * sin((hour - 8) / 24 * 2 * .pi) + Double((i * 37) % 41) - 20)
            lines.append("\"\(iso.string(from: t))\",\(Int64(t.timeIntervalSince1970 * 1000)),\(max(45, mgdl)),\"Flat\",")
            let recent = end.timeIntervalSince(t) < 14 * 86_400
            t = t.addingTimeInterval(recent ? 300 : 1_800)
            i += 1
        }
        try (lines.reversed().joined(separator: "\n") + "\n").write(to: csv, atomically: true, encoding: .utf8)
        let bin = ServeProcess.binary.path
        let imported = run(bin, ["import", csv.path, "--db", db.path])
        guard imported.code == 0 else { throw ServeTestError("import failed: \(imported.output)") }
        let settings = dir.appendingPathComponent("settings.yml")
        try "classify: { preset: seeds }\nreports: { reminder: \"00:01\" }\n".write(to: settings, atomically: true, encoding: .utf8)
        let configured = run(bin, ["reaggregate", "--db", db.path, "--config", settings.path, "--quiet"])
        guard configured.code == 0 else { throw ServeTestError("reaggregate failed: \(configured.output)") }
        return db
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> (code: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = ServeProcess.tempDir().appendingPathComponent("out.txt")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        guard let h = try? FileHandle(forWritingTo: out) else { return (-1, "cannot write \(out.path)") }
        p.standardOutput = h
        p.standardError = h
        do { try p.run() } catch { return (-1, "\(error)") }
        p.waitUntilExit()
        try? h.close()
        return (p.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "")
    }
}
