import Foundation
import Testing

/// Apple Health exports through the real binary: zip and XML, detected by content, idempotent.
@Suite struct AppleHealthImportTests {
    static let zip = E2E.samples.appendingPathComponent("apple-health/healthkit-to-sqlite_export.zip").path
    static let xml = E2E.samples.appendingPathComponent("apple-health/healthkit-to-sqlite_zip_contents/apple_health_export/export.xml").path

    @Test func zipImportsAndReimportAddsNothing() throws {
        let db = E2E.tempDir().appendingPathComponent("h.sqlite")
        let first = try E2E.run(["import", Self.zip, "--db", db.path])
        #expect(first.code == 0, "\(first.stderr)")
        #expect(first.stdout.contains("[apple-health]") || first.stderr.contains("[apple-health]"))
        // 2 Records + 2 ActivitySummary × 6 ring values; 1 Workout; Me (a profile, not counted in new_rows).
        #expect(E2E.count(db, "measurements") == 14)
        #expect(E2E.count(db, "events", "kind = 'exercise' AND subtype = 'running' AND intensity = 'medium'") == 1)
        #expect(E2E.scalar(db, "SELECT biological_sex || ' ' || date_of_birth FROM subject_profiles") == "male 1990-02-02")
        #expect(E2E.scalar(db, "SELECT format || ' ' || status || ' ' || new_rows FROM imports") == "apple-health complete 15")
        // The device is stored once and referenced; the rows' metadata no longer repeats it.
        #expect(E2E.scalar(db, "SELECT d.hardware || ' ' || d.software FROM measurements m JOIN devices d ON d.id = m.device_id WHERE m.metric = 'heart_rate'") == "Watch2,4 4.3.1")
        #expect(E2E.count(db, "devices") == 1)
        #expect(E2E.count(db, "measurements", "metadata LIKE '%device%'") == 0)
        #expect(E2E.scalar(db, "SELECT json_extract(metadata, '$.\"Withings Link\"') FROM measurements WHERE metric = 'body_mass_index'")
                == "withings-bd2://timeline/measure?userid=12345&date=482685932&type=1")

        let again = try E2E.run(["import", Self.zip, "--db", db.path])
        #expect(again.code == 0, "\(again.stderr)")
        #expect(E2E.count(db, "measurements") == 14)
        #expect(E2E.count(db, "events") == 1)
        #expect(E2E.count(db, "devices") == 1)
        #expect(E2E.scalar(db, "SELECT new_rows FROM imports") == "0")

        // The unpacked XML of the same export: same Apple keys, nothing new.
        let unpacked = try E2E.run(["import", Self.xml, "--db", db.path])
        #expect(unpacked.code == 0, "\(unpacked.stderr)")
        #expect(E2E.count(db, "measurements") == 14)
        #expect(E2E.scalar(db, "SELECT new_rows FROM imports WHERE path LIKE '%export.xml'") == "0")
    }

    @Test func newerExportAddsOnlyNewRecords() throws {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("h.sqlite")
        let original = try String(contentsOfFile: Self.xml, encoding: .utf8)
        let extra = """
                <Record type="HKQuantityTypeIdentifierBloodGlucose" sourceName="Dexcom" unit="mmol&lt;180.1558800000541&gt;/L" startDate="2019-07-01 08:00:00 -0700" endDate="2019-07-01 08:00:00 -0700" value="10"/>
                <Record type="HKQuantityTypeIdentifierInsulinDelivery" sourceName="Loop" unit="IU" startDate="2019-07-01 08:05:00 -0700" endDate="2019-07-01 08:05:00 -0700" value="3.5">
                    <MetadataEntry key="HKInsulinDeliveryReason" value="2"/>
                </Record>
            </HealthData>
            """
        let newer = dir.appendingPathComponent("eksport.xml")
        try E2E.write(original.replacingOccurrences(of: "</HealthData>", with: extra), to: newer)
        #expect(try E2E.run(["import", Self.xml, "--db", db.path]).code == 0)
        let r = try E2E.run(["import", newer.path, "--db", db.path])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.scalar(db, "SELECT new_rows FROM imports WHERE path LIKE '%eksport.xml'") == "2")
        #expect(E2E.scalar(db, "SELECT value || ' ' || unit || ' ' || band FROM measurements WHERE metric = 'glucose'") == "180.0 mg/dL normal")  // 10.0 mmol/L → 180, in the seeds' normal band
        #expect(E2E.scalar(db, "SELECT subtype || ' ' || insulin_u FROM events WHERE kind = 'insulin'") == "bolus 3.5")
        #expect(E2E.scalar(db, "SELECT insulin_u FROM daily_summaries WHERE day = '2019-07-01' AND metric = 'glucose'") == "3.5")
    }

    @Test func truncatedExportKeepsWhatItHasAndSaysWhere() throws {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("h.sqlite")
        let original = try String(contentsOfFile: Self.xml, encoding: .utf8)
        let cut = original.range(of: "<Workout")!.lowerBound
        let path = dir.appendingPathComponent("export.xml")
        try E2E.write(String(original[..<cut]) + "<Workout workoutActivityType=\"HKWorkout", to: path)
        let r = try E2E.run(["import", path.path, "--db", db.path])
        #expect(r.code == 3)
        #expect(E2E.count(db, "measurements") == 2)
        #expect(r.stderr.contains("cannot be read past line 14"), "\(r.stderr)")
    }

    @Test func pipelineOptionsFilterTypesSourcesAndDays() throws {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("p.sqlite")
        let yml = dir.appendingPathComponent("p.yml")
        try E2E.write("""
        sources:
          phone: { type: apple-health, path: '\(Self.zip)', types: [heart_rate, workout, activity_summary], to: 2016-11-15 }
        sinks:
          db: { type: sqlite, inputs: [phone], path: '\(db.path)' }
        """, to: yml)
        let r = try E2E.run(["run", yml.path])
        #expect(r.code == 0, "\(r.stderr)")
        // heart rate is 2018 (after `to`), BMI is not in `types`; the 2016-11-14 workout and the 11-15 rings stay.
        #expect(E2E.count(db, "measurements") == 6)
        #expect(E2E.count(db, "measurements", "metric = 'heart_rate' OR metric = 'body_mass_index'") == 0)
        #expect(E2E.count(db, "events", "kind = 'exercise'") == 1)

        try E2E.write("""
        sources:
          phone: { type: apple-health, path: '\(Self.zip)', from: 2016-13-01 }
        sinks:
          db: { type: sqlite, inputs: [phone], path: '\(db.path)' }
        """, to: yml)
        let bad = try E2E.run(["validate", yml.path])
        #expect(bad.code == 2)
        #expect(bad.stderr.contains("p.yml:2:") && bad.stderr.contains("'2016-13-01' is not a date"), "\(bad.stderr)")
    }

    @Test func samplePipelineValidates() throws {
        let r = try E2E.run(["validate", E2E.samples.appendingPathComponent("pipelines/apple-health.yml").path])
        #expect(r.code == 0, "\(r.stderr)")
    }
}

/// Apple Health toothbrushing records join the motion-session history (issue 5's contract).
@Suite struct AppleToothbrushingHistoryTests {
    @Test func toothbrushingRecordsAppearAsSessions() throws {
        let dir = E2E.tempDir()
        let xml = dir.appendingPathComponent("export.xml")
        try E2E.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_GB">
         <ExportDate value="2026-01-10 09:00:00 +0000"/>
         <Record type="HKCategoryTypeIdentifierToothbrushingEvent" sourceName="Oral-B" creationDate="2026-01-06 07:33:00 +0000" startDate="2026-01-06 07:30:00 +0000" endDate="2026-01-06 07:32:00 +0000" value="HKCategoryValueNotApplicable"/>
         <Record type="HKCategoryTypeIdentifierToothbrushingEvent" sourceName="Oral-B" creationDate="2026-01-07 21:03:00 +0000" startDate="2026-01-07 21:00:00 +0000" endDate="2026-01-07 21:02:30 +0000"/>
        </HealthData>
        """, to: xml)
        let db = dir.appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", xml.path, "--db", db.path])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(E2E.count(db, "measurements", "metric = 'toothbrushing'") == 2)
        #expect(E2E.count(db, "brushing_sessions") == 2)
        let week = try E2E.run(["history", "--db", db.path, "--period", "week", "--today", "2026-01-08", "--json"])
        #expect(week.code == 0, "\(week.stderr)")
        #expect(week.stdout.contains("\"sessions\":2") || week.stdout.contains("\"sessions\": 2"), "\(week.stdout)")
    }
}
