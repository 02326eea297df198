import Foundation
import Testing

/// A Google Fit Takeout holds a day's steps twice: in `Daily activity metrics.csv` and in the day's
/// quarter-hour file. Imported together, the day's total is the day's own value, counted once; the
/// quarter hours count alone on a day the daily file does not have.
@Suite struct GoogleFitDayTotalTests {
    static let folder = E2E.fixtures.appendingPathComponent("real/google-fit")

    /// The value of `column` on `day`'s row of a Google Fit CSV (`Date` first).
    static func cell(_ file: String, day: String, column: String) throws -> Double {
        let lines = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false)
        let row = try #require(lines.first { $0.hasPrefix(day + ",") }).split(separator: ",", omittingEmptySubsequences: false)
        let index = try #require(header.firstIndex(of: Substring(column)))
        return try #require(Double(row[index]))
    }

    @Test func theDailyFileAndTheQuarterHoursOfADayCountItsStepsOnce() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        func total(_ day: String) -> (total: Double?, sources: String) {
            let row = E2E.query(db, "SELECT total, total_sources FROM daily_summaries WHERE metric = 'step_count' AND day = '\(day)'").first ?? []
            return (row.first.flatMap(Double.init), row.count > 1 ? row[1] : "")
        }
        let quarterHours = try E2E.run(["import", Self.folder.appendingPathComponent("2025-02-03.csv").path, "--db", db.path,
                                        "--timezone", "Asia/Kolkata"])
        #expect(quarterHours.code == 0, "\(quarterHours.stderr)")
        // Only the quarter hours: their sum (count.py's 21 rows of 2025-02-03.csv add up to 3103).
        #expect(total("2025-02-03").total == 3103)

        let daily = try E2E.run(["import", Self.folder.appendingPathComponent("Daily activity metrics-2025.csv").path, "--db", db.path,
                                 "--timezone", "Asia/Kolkata"])
        #expect(daily.code == 0, "\(daily.stderr)")
        let day = try Self.cell("Daily activity metrics-2025.csv", day: "2025-02-03", column: "Step count")
        let both = total("2025-02-03")
        #expect(both.total == day, "\(both)")
        #expect(both.sources.contains("\"Google Fit\"") && !both.sources.contains("15 min"), "\(both.sources)")
    }

    /// The same with All Data's step points (Google's estimate, every few seconds to minutes): with the
    /// daily file the day's total is its value; alone, the points' sum.
    @Test func theDailyFileAndAllDataPointsCountADaysStepsOnce() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        func total(_ day: String) -> Double? {
            E2E.query(db, "SELECT total FROM daily_summaries WHERE metric = 'step_count' AND day = '\(day)'").first?.first.flatMap(Double.init)
        }
        let points = try E2E.run(["import", Self.folder.appendingPathComponent("All Data/derived_com.google.step_count.delta_com.google(1).json").path,
                                  "--db", db.path, "--timezone", "Asia/Kolkata"])
        #expect(points.code == 0, "\(points.stderr)")
        let alone = try #require(total("2025-01-29"))
        let stored = E2E.scalar(db, """
            SELECT sum(value) FROM measurements WHERE metric = 'step_count'
            AND date(start + 19800, 'unixepoch') = '2025-01-29'
            """)
        #expect(alone == Double(stored))
        let daily = try E2E.run(["import", Self.folder.appendingPathComponent("Daily activity metrics-2025.csv").path, "--db", db.path,
                                 "--timezone", "Asia/Kolkata"])
        #expect(daily.code == 0, "\(daily.stderr)")
        #expect(total("2025-01-29") == (try Self.cell("Daily activity metrics-2025.csv", day: "2025-01-29", column: "Step count")))
    }

    /// Two All Data streams of the same steps (the Fit app's and Google's estimate) each hold the day's
    /// walking: the day's total counts each minute from one of them — Google's estimate, as the Fit app
    /// does — not their sum.
    @Test func twoStepStreamsOfOneDayCountItOnce() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        for file in ["derived_com.google.step_count.delta_com.google.json", "derived_com.google.step_count.delta_com.google(1).json"] {
            let r = try E2E.run(["import", Self.folder.appendingPathComponent("All Data/" + file).path, "--db", db.path, "--timezone", "Asia/Kolkata"])
            #expect(r.code == 0, "\(r.stderr)")
        }
        let day = "date(start + 19800, 'unixepoch') = '2025-01-29'"
        let both = Double(E2E.scalar(db, "SELECT sum(value) FROM measurements WHERE metric = 'step_count' AND \(day)")) ?? 0
        let estimate = Double(E2E.scalar(db, "SELECT sum(value) FROM measurements WHERE metric = 'step_count' AND \(day) AND source LIKE 'Google Fit: estimated_steps%'")) ?? 0
        let total = Double(E2E.scalar(db, "SELECT total FROM daily_summaries WHERE metric = 'step_count' AND day = '2025-01-29'"))
        // The estimate covers every minute of that day the app's stream does, and its name sorts first.
        #expect(estimate > 0 && both > estimate * 1.9)
        #expect(total == estimate, "total \(String(describing: total)), the estimate \(estimate), both \(both)")
    }
}
