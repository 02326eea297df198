import Foundation
import Testing

/// `healthpipe metrics` on the simglucose reference data, checked against reference_metrics.csv.
@Suite struct MetricsCommandTests {
    struct Row { var source: String, patient: String, period: String, metric: String, value: Double }

    static func referenceRows(source: String) throws -> [Row] {
        let text = try String(contentsOf: E2E.fixtures.appendingPathComponent("reference/reference_metrics.csv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f[0] == source, !f[5].hasPrefix("cgmquantify"), f[3] != "iglu_auto_dt0_min" else { return nil }
            return Row(source: f[0], patient: f[1], period: f[2], metric: f[3], value: Double(f[4])!)
        }
    }

    /// JSON lines → [subject + "/" + period: object].
    static func objects(_ stdout: String) throws -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for line in stdout.split(separator: "\n") {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            out["\(o["subject"]!)/\(o["period"]!)"] = o
        }
        return out
    }

    static func compare(_ rows: [Row], _ objects: [String: [String: Any]], periodKey: (Row) -> String) -> [String] {
        var failures: [String] = []
        for r in rows {
            let key = "\(r.patient)/\(periodKey(r))"
            let ours = (objects[key]?[r.metric] as? NSNumber)?.doubleValue
            guard let ours, abs(ours - r.value) <= 1e-5 * abs(r.value) + 1e-12 else {
                failures.append("\(key) \(r.metric): \(ours.map { "\($0)" } ?? "missing") vs \(r.value)")
                continue
            }
        }
        return failures
    }

    @Test func periodJSONReproducesTheReferencePeriodRows() throws {
        let r = try E2E.run(["metrics", "--input", E2E.fixtures.appendingPathComponent("reference/simglucose/all.csv").path,
                             "--per", "period", "--json"])
        #expect(r.code == 0, "\(r.stderr)")
        let objects = try Self.objects(r.stdout)
        #expect(objects.count == 10)
        let rows = try Self.referenceRows(source: "regular").filter { $0.period == "all" }
        #expect(rows.count > 100)
        let failures = Self.compare(rows, objects) { _ in "2024-01-01/2024-01-14" }
        #expect(failures.isEmpty, "\(failures.count) of \(rows.count): \(failures.prefix(10))")
    }

    /// Issue 22: the GRI (checked against iglu in the rows above) comes with its zone A–E
    /// (Klonoff et al. 2023), and time in tight range as iglu's in_range_percent(70–140).
    @Test func theGRIComesWithItsZone() throws {
        let file = E2E.fixtures.appendingPathComponent("reference/simglucose/all.csv").path
        let r = try E2E.run(["metrics", "--input", file, "--per", "period", "--json"])
        #expect(r.code == 0, "\(r.stderr)")
        let objects = try Self.objects(r.stdout)
        let gri = try Self.referenceRows(source: "regular").filter { $0.period == "all" && $0.metric == "gri" }
        #expect(!gri.isEmpty)
        for row in gri {
            let o = objects["\(row.patient)/2024-01-01/2024-01-14"]
            let zone = row.value <= 20 ? "A" : row.value <= 40 ? "B" : row.value <= 60 ? "C" : row.value <= 80 ? "D" : "E"
            #expect(o?["gri_zone"] as? String == zone, "\(row.patient): GRI \(row.value)")
            #expect(o?["titr_70_140_pct"] is NSNumber)
        }
        let table = try E2E.run(["metrics", "--input", file, "--per", "period"])
        #expect(table.stdout.range(of: #"gri\s+[0-9.]+\s+gri_zone\s+[A-E]\s"#, options: .regularExpression) != nil)
    }

    @Test func dailyJSONOnTheIrregularCopyReproducesTheReferenceDayRows() throws {
        let r = try E2E.run(["metrics", "--input", E2E.fixtures.appendingPathComponent("reference/simglucose/irregular.csv").path,
                             "--json"])
        #expect(r.code == 0, "\(r.stderr)")
        let objects = try Self.objects(r.stdout)
        // CONGA and MODD of the irregular rows depend on iglu's automatic grid step; the unit tests
        // (MetricsReferenceTests) check the rows where it was 5 minutes.
        let rows = try Self.referenceRows(source: "irregular")
            .filter { $0.period != "all" && !["conga1", "conga24_iglu_default", "modd"].contains($0.metric) }
        #expect(rows.count > 500)
        let failures = Self.compare(rows, objects) { $0.period }
        #expect(failures.isEmpty, "\(failures.count) of \(rows.count): \(failures.prefix(10))")
    }

    @Test func databaseMetricsEqualFileMetricsAndImportStoresThem() throws {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("h.sqlite")
        let csv = E2E.fixtures.appendingPathComponent("reference/simglucose/all.csv").path
        let imported = try E2E.run(["import", csv, "--db", db.path])
        #expect(imported.code == 0, "\(imported.stderr)")
        // The import pipeline's daily stage stores a metric set per subject and day.
        #expect(E2E.count(db, "glucose_metrics", "name = 'mean'") == 140)
        let stored = Double(E2E.scalar(db, """
            SELECT value FROM glucose_metrics WHERE subject = 'adult#001' AND period_start = '2024-01-05'
            AND period_end = '2024-01-05' AND name = 'mage_ma'
            """))
        let reference = try Self.referenceRows(source: "regular").first { $0.patient == "adult#001" && $0.period == "2024-01-05" && $0.metric == "mage_ma" }!
        #expect(stored.map { abs($0 - reference.value) <= 1e-5 * reference.value } == true)

        let fromDB = try E2E.run(["metrics", "--db", db.path, "--per", "period", "--json", "--subject", "child#001"])
        let fromFile = try E2E.run(["metrics", "--input", csv, "--per", "period", "--json", "--subject", "child#001"])
        #expect(fromDB.code == 0 && fromFile.code == 0, "\(fromDB.stderr) \(fromFile.stderr)")
        #expect(fromDB.stdout.split(separator: "\n").count == 1)
        #expect(fromDB.stdout == fromFile.stdout)
    }

    @Test func boundedPeriodAndTable() throws {
        let csv = E2E.fixtures.appendingPathComponent("reference/simglucose/all.csv").path
        let r = try E2E.run(["metrics", "--input", csv, "--per", "period", "--from", "2024-01-03", "--to", "2024-01-03",
                             "--subject", "adult#001", "--json"])
        let o = try #require(try Self.objects(r.stdout)["adult#001/2024-01-03"])
        // A one-day period equals that day's reference row.
        let day = try Self.referenceRows(source: "regular").filter { $0.patient == "adult#001" && $0.period == "2024-01-03" }
        #expect(!day.isEmpty)
        for row in day { #expect(abs((o[row.metric] as? NSNumber)!.doubleValue - row.value) <= 1e-5 * abs(row.value) + 1e-12, "\(row.metric)") }

        let table = try E2E.run(["metrics", "--input", csv, "--subject", "adult#001"])
        #expect(table.code == 0)
        #expect(table.stdout.contains("adult#001  glucose  2024-01-14  (mg/dL)") && table.stdout.contains("mage_ma"))
        let bad = try E2E.run(["metrics", "--input", csv, "--per", "day", "--from", "2024-01-03"])
        #expect(bad.code != 0 && bad.stderr.contains("--per period"))
    }

    @Test func daySetsCarryTheDayTotals() throws {
        let csv = E2E.fixtures.appendingPathComponent("reference/simglucose/all.csv")
        let r = try E2E.run(["metrics", "--input", csv.path, "--subject", "child#001", "--json"])
        let objects = try Self.objects(r.stdout)
        #expect(objects.count == 14)
        // The carbs of each day, summed straight from the file.
        var carbs: [String: Double] = [:]
        for line in try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            if f[1] == "child#001" { carbs[String(f[0].prefix(10)), default: 0] += Double(f[3])! }
        }
        for (day, total) in carbs {
            let ours = (objects["child#001/\(day)"]?["carbs_g"] as? NSNumber)?.doubleValue
            #expect(ours.map { abs($0 - total) < 1e-9 } == true, "\(day)")
        }
        #expect(objects.values.allSatisfy { $0["hypo_days"] != nil && $0["mage_ma"] != nil })
    }
}
