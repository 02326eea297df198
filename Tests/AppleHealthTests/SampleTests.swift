@testable import AppleHealth
import Foundation
import HealthPipeCore
import Testing

/// The real sample exports, with counts established by reading the files (python ElementTree).
@Suite struct SampleTests {
    /// healthkit-to-sqlite: 2 Records, 1 Workout, 2 ActivitySummary (4 ring values + 4 goals each… 6 attributes), Me.
    @Test func healthkitSample() throws {
        let run = try read(Samples.healthkit)
        #expect(run.rejects.isEmpty)
        // 2 records + 2 summaries × 6 ring attributes (energy, exercise, stand and their goals).
        #expect(run.measurements.count == 14)
        #expect(run.metric("body_mass_index").map(\.value) == [22.5312])
        let hr = try #require(run.metric("heart_rate").first)
        #expect(hr.value == 72 && hr.unit.text == "count/min")
        #expect(hr.source.text == "Apple\u{A0}Watch")  // the real file has a no-break space
        #expect(hr.utcOffset == -7 * 3600)
        let meta = try #require(hr.metadata)
        #expect(meta.contains("\"motion_context\":\"unset\""))
        #expect(!meta.contains("device"))
        #expect(hr.device.text == "{\"name\":\"Apple Watch\",\"manufacturer\":\"Apple\",\"model\":\"Watch\",\"hardware\":\"Watch2,4\",\"software\":\"4.3.1\"}")
        // Predefined entities are decoded in metadata values.
        let bmi = try #require(run.metric("body_mass_index").first?.metadata)
        #expect(bmi.contains("userid=12345&date=482685932&type=1"))
        #expect(run.metric("activity_active_energy").map(\.value).sorted() == [323.513, 590.252])
        #expect(run.metric("activity_exercise_time").map(\.value).sorted() == [39, 68])
        let day = try #require(run.metric("activity_stand_hours").first { $0.value == 13 })
        #expect(CivilDate.isoDate(fromDays: day.localDay) == "2016-11-15")

        #expect(run.events.count == 1)
        let workout = try #require(run.events.first)
        #expect(workout.kind == .exercise && workout.subtype.text == "running")
        #expect(workout.durationSeconds == 311)
        // 48.745 kcal in 5.19 min = 9.4 kcal/min.
        #expect(workout.intensity.text == "medium")
        // HKTimeZone America/Los_Angeles: mid-November is PST, although the dates say -0700.
        #expect(workout.utcOffset == -8 * 3600)
        let wmeta = try #require(workout.metadata)
        #expect(wmeta.contains("\"distance_km\":0.80012552346"))
        #expect(wmeta.contains("\"HKWeatherTemperature\":\"56 degF\""))

        let me = try #require(run.profiles.first)
        #expect(run.profiles.count == 1)
        #expect(me.dateOfBirth == "1990-02-02" && me.biologicalSex == "male" && me.bloodType == nil && me.skinType == nil)
        #expect(run.input?.rowsRead == 7)
    }

    /// apple-health-parser: 8 Records (2 heart rate, 2 active energy, exercise, stand, 2 sleep stages).
    @Test func appleHealthParserSample() throws {
        let run = try read(Samples.parser)
        #expect(run.rejects.isEmpty)
        #expect(run.measurements.count == 8)
        #expect(run.events.isEmpty)
        #expect(run.metric("heart_rate").map(\.value) == [74, 75])
        #expect(run.metric("active_energy_burned").map(\.value) == [0.12, 0.08])
        #expect(run.metric("heart_rate").allSatisfy { $0.source.text == "Alexandre's Apple Watch" })
        let inBed = try #require(run.metric("sleep_analysis.in_bed").first)
        let core = try #require(run.metric("sleep_analysis.asleep_core").first)
        #expect(core.value == 12.5 && core.unit.text == "min")
        #expect(inBed.utcOffset == 3600 && core.utcOffset == 3600)  // HKTimeZone Europe/Amsterdam in January, not the written +0200
        let me = try #require(run.profiles.first)
        #expect(me.bloodType == "A-")
        #expect(me.attributes.contains("\"HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse\":\"None\""))
    }

    /// The zip is read in place; its records equal the unpacked XML's.
    @Test func zipEqualsUnpackedXML() throws {
        let zipped = try read(Samples.zip)
        let plain = try read(Samples.zipContents.appendingPathComponent("apple_health_export/export.xml").path)
        #expect(zipped.measurements.count == 14 && zipped.events.count == 1)
        #expect(zipped.measurements.map(\.value) == plain.measurements.map(\.value))
        #expect(zipped.events.map(\.metadata) == plain.events.map(\.metadata))
        #expect(zipped.events.first?.metadata?.contains("/workout-routes/route_2019-06-11_3.00pm.gpx") == true)
        #expect(zipped.input?.hash == plain.input?.hash)
        // Progress counts bytes of XML read against the XML's size (the entry's uncompressed size in a zip).
        #expect(zipped.progress.done == 2881 && zipped.progress.total == 2881)
        #expect(plain.progress.done == 2881 && plain.progress.total == 2881)
    }

    /// A translated export (exportar.zip / exportar.xml) with export_cda.xml first: found by content.
    @Test func translatedZipFoundByContent() throws {
        let xml = try Data(contentsOf: URL(fileURLWithPath: Samples.healthkit))
        let cda = Data("<?xml version=\"1.0\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"></ClinicalDocument>\n<extra/>".utf8)
        let zip = try makeZip([("apple_health_export/export_cda.xml", cda), ("apple_health_export/exportar.xml", xml)],
                              name: "exportar.zip")
        let run = try read(zip)
        #expect(run.measurements.count == 14 && run.events.count == 1 && run.rejects.isEmpty)
        #expect(ExportLocator.detect(try FileSniff.read(path: zip)) == 95)
        let noHealth = try makeZip([("apple_health_export/export_cda.xml", cda)], name: "other.zip")
        #expect(ExportLocator.detect(try FileSniff.read(path: noHealth)) == 0)
        #expect(throws: InputError.self) { try read(noHealth) }
    }

    @Test func detection() throws {
        #expect(ExportLocator.detect(try FileSniff.read(path: Samples.healthkit)) == 95)
        #expect(ExportLocator.detect(try FileSniff.read(path: Samples.parser)) == 95)
        #expect(ExportLocator.detect(try FileSniff.read(path: Samples.zip)) == 95)
        let csv = Samples.root.deletingLastPathComponent().appendingPathComponent("dexcom-clarity/cgmquantify_test_file.csv").path
        #expect(ExportLocator.detect(try FileSniff.read(path: csv)) == 0)
    }
}
