import Foundation
import HealthPipeCore
import Testing

/// The page's trend charts on real exports: every chart's points are the store's daily rows — the
/// day's `total` for a metric that adds up (steps: each minute once across sources), the day's mean
/// for a level — and the steps of a real Apple export are what `day_totals.py` computes independently.
@Suite struct TrendChartsTests {
    /// Every trend figure of the page: metric → [(ISO day, value)].
    static func charts(_ html: String) -> [String: [(day: String, value: Double)]] {
        var out: [String: [(day: String, value: Double)]] = [:]
        for figure in html.components(separatedBy: "<figure class=\"trend\" data-metric=\"").dropFirst() {
            let metric = String(figure.prefix { $0 != "\"" })
            let body = figure.components(separatedBy: "</figure>")[0]
            out[metric] = body.components(separatedBy: "<g class=\"trend-point\" data-day=\"").dropFirst().map { part in
                (String(part.prefix(10)), Double(part.components(separatedBy: "data-value=\"")[1].prefix { $0 != "\"" }) ?? .nan)
            }
        }
        return out
    }

    /// Writes the page of `from...to` and checks each chart against `daily_summaries`; returns the charts.
    static func pageChartsEqualTheStore(_ db: URL, from: String, to: String) throws -> [String: [(day: String, value: Double)]] {
        let page = db.deletingLastPathComponent().appendingPathComponent("page.html")
        let r = try E2E.run(["page", "--db", db.path, "--from", from, "--to", to, "-o", page.path])
        #expect(r.code == 0, "\(r.stderr)")
        let charts = Self.charts(try String(contentsOf: page, encoding: .utf8))
        let rows = E2E.query(db, "SELECT metric, day, mean, total FROM daily_summaries WHERE metric <> 'glucose' AND day BETWEEN '\(from)' AND '\(to)' ORDER BY day")
        var stored: [String: [(day: String, value: Double)]] = [:]
        for row in rows {
            let addsUp = MetricCatalogue.dayAggregation(row[0]).addsUp
            guard let value = Double(addsUp ? row[3] : row[2]) else { continue }
            stored[row[0], default: []].append((row[1], value))
        }
        #expect(!stored.isEmpty)
        #expect(Set(charts.keys) == Set(stored.keys))
        for (metric, points) in stored {
            let drawn = charts[metric] ?? []
            #expect(drawn.map(\.day) == points.map(\.day), "\(metric)")
            // SQLite's text of a REAL keeps 15 significant digits; the chart writes the stored double whole.
            #expect(drawn.count == points.count && zip(drawn, points).allSatisfy { abs($0.value - $1.value) <= 1e-12 * max(1, abs($1.value)) },
                    "\(metric): \(drawn.map(\.value)) ≠ \(points.map(\.value))")
        }
        return charts
    }

    @Test func theStepsChartOfARealAppleExportIsItsIndependentDayTotals() throws {
        let file = "apple-health-es-es-ios9-exportacion.zip"
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try E2E.run(["import", AppleHealthDayTotalsTests.folder.appendingPathComponent(file).path, "--db", db.path]).code == 0)
        let charts = try Self.pageChartsEqualTheStore(db, from: "2014-12-31", to: "2015-01-13")
        let expected = try AppleHealthDayTotalsTests.expected().filter { $0.file == file && $0.metric == "step_count" && $0.day <= "2015-01-13" }
            .sorted { $0.day < $1.day }
        #expect(expected.count == 7)
        let steps = try #require(charts["step_count"])
        #expect(steps.map(\.day) == expected.map(\.day))
        for (drawn, e) in zip(steps, expected) { #expect(AppleHealthDayTotalsTests.close(drawn.value, e.total), "\(e.day)") }
    }

    @Test func googleFitDailyMetricsAreChartedAsStored() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = GoogleFitDayTotalTests.folder.appendingPathComponent("Daily activity metrics-2025.csv")
        #expect(try E2E.run(["import", file.path, "--db", db.path, "--timezone", "Asia/Kolkata"]).code == 0)
        let charts = try Self.pageChartsEqualTheStore(db, from: "2025-01-29", to: "2025-02-11")
        let steps = try #require(charts["step_count"]?.first)
        #expect(steps.day == "2025-01-29")
        #expect(steps.value == (try GoogleFitDayTotalTests.cell("Daily activity metrics-2025.csv", day: "2025-01-29", column: "Step count")))
    }

    @Test func fitbitRestingHeartRateIsChartedAsItsDayMeans() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = FitbitExportImportTests.real.appendingPathComponent("resting_heart_rate-2024-03-01.json")
        #expect(try E2E.run(["import", file.path, "--db", db.path]).code == 0)
        let charts = try Self.pageChartsEqualTheStore(db, from: "2024-02-18", to: "2024-03-02")
        // The file's own values (its two days), as the chart draws them.
        #expect(charts["resting_heart_rate"]?.map(\.value) == [54.01231098175049, 55.069952964782715])
    }
}
