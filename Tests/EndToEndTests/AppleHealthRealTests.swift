import Foundation
import Testing

/// What the real Apple Health exports of Tests/Fixtures/real/apple-health revealed.
@Suite struct AppleHealthRealTests {
    static let folder = E2E.fixtures.appendingPathComponent("real/apple-health")

    /// iOS 16 renamed `HKCategoryValueSleepAnalysisAsleep` to `…AsleepUnspecified` (same raw value 1,
    /// same sample). The real iOS 12 export writes the old name; the same phone's export after the
    /// update writes the new one for the same night. Both must be one row of one metric, so the newer
    /// export adds nothing.
    @Test func sleepAsleepBeforeAndAfterIOS16IsOneState() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let old = Self.folder.appendingPathComponent("apple-health-en-us-ios12.xml")
        let text = try String(contentsOf: old, encoding: .utf8)
        #expect(text.contains("value=\"HKCategoryValueSleepAnalysisAsleep\""))
        let renamed = dir.appendingPathComponent("export-ios16.xml")
        try E2E.write(text.replacingOccurrences(of: "value=\"HKCategoryValueSleepAnalysisAsleep\"",
                                                with: "value=\"HKCategoryValueSleepAnalysisAsleepUnspecified\""), to: renamed)

        for file in [old, renamed] {
            let r = try E2E.run(["import", file.path, "--db", db.path])
            #expect(r.code == 0, "\(r.stderr)")
        }
        #expect(E2E.count(db, "measurements", "metric = 'sleep_analysis.asleep'") == 0)
        #expect(E2E.count(db, "measurements", "metric = 'sleep_analysis.asleep_unspecified'") == 1)
        #expect(E2E.scalar(db, "SELECT new_rows FROM imports WHERE path LIKE '%export-ios16.xml'") == "0")
    }
}

extension AppleHealthRealTests {
    /// The Arabic (ar_SA) export writes the date of birth in Arabic-Indic digits; `date_of_birth` is
    /// `YYYY-MM-DD` (docs/schema.md), the text as written stays in `attributes`.
    @Test func arabicDigitsInTheDateOfBirth() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let zip = Self.folder.appendingPathComponent("apple-health-ar-sa-ios16-tasdir.zip")
        let r = try E2E.run(["import", zip.path, "--db", db.path])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.scalar(db, "SELECT date_of_birth FROM subject_profiles") == "1980-02-29")
        #expect(E2E.scalar(db, "SELECT json_extract(attributes, '$.HKCharacteristicTypeIdentifierDateOfBirth') FROM subject_profiles")
                == "١٩٨٠-٠٢-٢٩")
    }
}
