import Foundation
import Testing

/// `healthpipe evaluate` on the simglucose reference data in Tests/Fixtures/reference (reference/analytics.md §7–8).
@Suite struct EvaluateCommandTests {
    static let simglucose = E2E.fixtures.appendingPathComponent("reference/simglucose/all.csv").path

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func model(_ doc: [String: Any], _ name: String) throws -> [String: Any] {
        let models = try #require(doc["models"] as? [String: Any])
        return try #require(models[name] as? [String: Any])
    }

    /// Nine patients (child#003 left out, as in the reference table), the forecasts as issued: the
    /// reference's AR2 (18.51 on 17,992 forecasts: EvaluateTests.modelsAsPublishedReproduceTheReference)
    /// less the 36 that `ForecastEnvelope` withholds (issue 36: a line faster than 4 mg/dL a minute),
    /// and the ridge models beat it by the required margins (66 and 180 withheld).
    @Test func reproducesAR2AndBeatsItWithRidge() throws {
        let r = try E2E.run(["evaluate", "--input", Self.simglucose, "--exclude", "child#003", "--json"])
        #expect(r.code == 0, "\(r.stderr)")
        let doc = try json(r.stdout)
        let ar2 = try model(doc, "ar2")
        #expect(ar2["n"] as? Int == 17_956)
        #expect(abs((ar2["rmse"] as? Double ?? 0) - 18.45) < 0.01)
        #expect(abs((ar2["rmse_mean_subjects"] as? Double ?? 0) - 17.92) < 0.01)
        #expect(abs((ar2["mae"] as? Double ?? 0) - 13.18) < 0.01)
        #expect(abs((ar2["mard"] as? Double ?? 0) - 11.33) < 0.01)
        #expect(abs((ar2["clarke_a"] as? Double ?? 0) - 84.6) < 0.1)
        #expect(abs((ar2["clarke_ab"] as? Double ?? 0) - 98.1) < 0.1)

        let ridge = try model(doc, "ridge")
        #expect(ridge["n"] as? Int == 17_970)
        #expect((ridge["rmse"] as? Double ?? 99) <= 16.5)
        #expect((ridge["clarke_a"] as? Double ?? 0) >= 87)

        let treatments = try model(doc, "ridge-treatments")
        #expect(treatments["n"] as? Int == 17_856)
        #expect((treatments["rmse"] as? Double ?? 99) <= 12.5)
        #expect((treatments["clarke_a"] as? Double ?? 0) >= 92)

        let subjects = try #require(doc["subjects"] as? [String: Any])
        #expect(subjects.count == 9 && subjects["child#003"] == nil)
        let child = try #require(subjects["child#001"] as? [String: Any])
        let childAR2 = try #require(child["ar2"] as? [String: Any])
        #expect(childAR2["n"] as? Int == 1965)
        #expect(abs((childAR2["rmse"] as? Double ?? 0) - 29.22) < 0.05)
    }

    /// The same numbers come out of a database written by `healthpipe import` (the sqlite-source).
    @Test func databaseInputMatchesFileInput() throws {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("h.sqlite").path
        let imported = try E2E.run(["import", Self.simglucose, "--db", db])
        #expect(imported.code == 0, "\(imported.stderr)")
        let fromDB = try E2E.run(["evaluate", "--db", db, "--model", "ar2", "--exclude", "child#003", "--json"])
        let fromFile = try E2E.run(["evaluate", "--input", Self.simglucose, "--model", "ar2", "--exclude", "child#003", "--json"])
        #expect(fromDB.code == 0 && fromFile.code == 0, "\(fromDB.stderr) \(fromFile.stderr)")
        #expect(fromDB.stdout == fromFile.stdout)
        let table = try E2E.run(["evaluate", "--db", db, "--model", "ar2", "--horizon", "15m"])
        #expect(table.stdout.contains("15-minute forecasts, 10 subjects"))
        #expect(table.stdout.contains("adult#001"))
    }

    @Test func badArgumentsAreConfigurationErrors() throws {
        let bad = try E2E.run(["evaluate", "--input", Self.simglucose, "--model", "lstm"])
        #expect(bad.code == 2 && bad.stderr.contains("'lstm' is invalid for '--model") && bad.stderr.contains("'ar2', 'ridge' or 'ridge-treatments'"))
        let horizon = try E2E.run(["evaluate", "--input", Self.simglucose, "--horizon", "7m"])
        #expect(horizon.code == 2 && horizon.stderr.contains("--horizon"))
        let both = try E2E.run(["evaluate"])
        #expect(both.code == 2)
    }
}
