import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import CSVFormats

/// Every row accounted for (docs/reliability.md): each data row of a YAML adapter is stored,
/// quarantined with a reason, or skipped as a type the adapter lists as not data, counted per type;
/// a type the adapter does not know is quarantined, warned about and sets exit status 3. Each case
/// below was dropped without a word before (exit 0, nothing quarantined, nothing counted).
@Suite struct MappedRowAccountingTests {
    private func count(_ out: SourceOutput, _ metric: String) -> [Double] {
        out.measurements.filter { $0.metric.text == metric }.map(\.value)
    }

    private func type(_ out: SourceOutput, _ name: String) -> RowTypeCount? {
        out.input.rowTypes.first { $0.type == name }
    }

    /// The mylife logbook in mmol/L (Tests/Fixtures/mylife, the real export's layout): glucose in the
    /// unit of each row's `Einheit`, basal rates, boluses, pump events, alarms and the daily total land.
    @Test func mylifeMmolLogbookLandsEveryRow() throws {
        let c = try MappedSupport.bundled("mylife")
        let path = try MappedSupport.repositoryFile("mylife/mylife-de-mmol-logbook.csv")
        #expect(c.detect!(try FileSniff.read(path: path)) > 0)
        let out = try MappedSupport.run(c, path: path, timezone: "Europe/Zurich")

        #expect(out.quarantineLines.isEmpty)
        // 5.8 and 9.1 mmol/L → 104 and 164 mg/dL; the 142 of a row in mg/dL stays 142.
        #expect(count(out, "blood_glucose") == [104, 164, 142])
        #expect(count(out, "glucose") == [115, 121])
        #expect(count(out, "basal_rate") == [0.85, 0.70])
        #expect(count(out, "insulin_daily_total") == [31.4])
        let insulin = out.events.filter { $0.kind == .insulin }
        #expect(insulin.compactMap(\.insulin) == [4.5, 2, 3])
        #expect(insulin.filter { $0.subtype.text == "temp_basal" }.count == 1)
        // The temporary basal's percentage is no amount of the event, but kept (it was dropped), and
        // the row's Information text (a duration, a bolus suggestion) is the note, as Notiz is.
        let temp = try #require(insulin.first { $0.subtype.text == "temp_basal" })
        #expect(temp.metadata == #"{"value":"120","unit":"%"}"#)
        #expect(temp.note == "Dauer: 2:00 h")
        #expect(insulin.first?.note == "Bolusvorschlag: 4.50 U")
        #expect(out.events.filter { $0.kind == .meal }.compactMap(\.carbs) == [45, 15])
        #expect(out.events.filter { $0.kind == .device }.map(\.subtype.text)
                == ["reservoir_change", "set_change", "pump_stop", "pump_start"])
        #expect(out.events.filter { $0.kind == .alert }.count == 1)

        // 21 data rows = 19 stored + 0 quarantined + 2 skipped (the Boost and Auto mode rows).
        #expect(out.input.stored == 19 && out.input.skipped == 2 && out.input.rejected == 0)
        #expect(type(out, "Basalrate") == RowTypeCount(type: "Basalrate", stored: 2))
        #expect(type(out, "Boost") == RowTypeCount(type: "Boost", skipped: 1))
        #expect(type(out, "Blutzucker")?.stored == 2)
        #expect(out.input.rowTypes.allSatisfy { $0.known })
        // The stage's line in the summary table: in 21 rows, bad 2 (in − bad = the 19 stored).
        let rows = try #require(out.context.accountedRows)
        #expect(rows.read == 21 && rows.skipped == 2)
        #expect(out.context.warnings.isEmpty)
    }

    /// A type the adapter neither maps nor skips: quarantined with its row, counted, warned about;
    /// the run report's exit status says so.
    @Test func anUnknownRowTypeIsQuarantinedCountedAndWarned() throws {
        let c = try MappedSupport.bundled("mylife")
        let text = try String(contentsOfFile: MappedSupport.repositoryFile("mylife/mylife-de-mmol-logbook.csv"), encoding: .utf8)
            + "\n\"Sa.\";\"07.02.26\";\"23:59\";\"Bolus Neu\";\"8,00\";\"U\";;"
        let out = try MappedSupport.run(c, path: try MappedSupport.temporaryFile("new-type.csv", text), timezone: "Europe/Zurich")
        #expect(out.quarantined.count == 1)
        #expect((out.quarantined[0]["reason"] as? String)?.contains("row type 'Bolus Neu' is one the mylife adapter neither maps nor lists in skip_types") == true)
        #expect((out.quarantined[0]["raw"] as? String)?.contains("\"8,00\"") == true)
        #expect(type(out, "Bolus Neu") == RowTypeCount(type: "Bolus Neu", quarantined: 1, known: false))
        #expect(out.context.warnings.contains { $0.contains("1 row of type 'Bolus Neu'") })
        var report = RunReport()
        report.inputs = out.context.inputs
        #expect(report.unknownTypeRows == 1 && report.exitCode == 3)
        // Under `on_error: skip` nothing is quarantined, and the exit status still says so.
        let skipped = try MappedSupport.run(c, path: try MappedSupport.temporaryFile("new-type.csv", text), timezone: "Europe/Zurich",
                                            policy: .skip)
        report.inputs = skipped.context.inputs
        #expect(skipped.quarantined.isEmpty && report.quarantined == 0 && report.exitCode == 3)
    }

    @Test func yourLoopsReadingsInEveryUnitSpelling() throws {
        let c = try MappedSupport.bundled("yourloops-cgm")
        let path = try MappedSupport.temporaryFile("cbg.csv", """
            timestamp,timezoneOffSet,value,units,cgmModel
            2025-09-14T00:00:18Z,120,245,mg/dL,
            2025-09-14T00:05:17Z,120,6.2,mmol,
            2025-09-14T00:10:17Z,120,130,mgdl,
            2025-09-14T00:15:17Z,120,7.0,mmol/L,
            2025-09-14T00:20:17Z,120,140,,

            """)
        let out = try MappedSupport.run(c, path: path)
        #expect(count(out, "glucose") == [245, 112, 130, 126])
        #expect(out.quarantined.count == 1)
        #expect((out.quarantined[0]["reason"] as? String)?.contains("the row names no unit") == true)
        #expect(out.input.stored == 4 && out.input.rejected == 1)
    }

    @Test func yourLoopsBolusesActivitiesAndMealsOfOtherTypes() throws {
        let bolus = try MappedSupport.run(try MappedSupport.bundled("yourloops-bolus"), path: try MappedSupport.temporaryFile("bolus.csv", """
            timestamp,timezoneOffSet,type,delivered,required,insulinOnBoard,prescriptor,biphasicId,part
            2025-09-14T00:00:00Z,120,normal,3,3,8.5,auto,,0
            2025-09-14T01:00:00Z,120,square,8,8,0,manual,,0

            """))
        #expect(bolus.events.compactMap(\.insulin) == [3])
        #expect(bolus.quarantined.count == 1 && type(bolus, "square")?.known == false)

        let activity = try MappedSupport.run(try MappedSupport.bundled("yourloops-activity"), path: try MappedSupport.temporaryFile("pa.csv", """
            timestamp,timezoneOffSet,duration.value,duration.unit,reportedIntensity,inputTimestamp
            2025-09-14T18:00:00Z,120,30,min,medium,2025-09-14T18:53:18.014Z
            2025-09-14T19:00:00Z,120,1,h,high,2025-09-14T19:53:18.014Z

            """))
        #expect(activity.events.map { ($0.end - $0.start) / 60 } == [30, 60])
        #expect(activity.quarantined.isEmpty)

        let meals = try MappedSupport.run(try MappedSupport.bundled("yourloops-meals"), path: try MappedSupport.temporaryFile("meals.csv", """
            timestamp,timezoneOffSet,inputTimestamp,carbsValue,carbUnit,is_input_meal_fat,bolus.type,bolus.delivered,bolus.insulinOnBoard,bolus.prescriptor,recommended.net
            2025-09-14T00:25:00Z,120,2025-09-14T00:25:58.236Z,50,grams,no,normal,0.3,5.7,auto,0.3
            2025-09-14T04:26:00Z,120,2025-09-14T04:26:35.268Z,20,g,no,normal,1.7,12.0,auto,1.7
            2025-09-14T06:42:00Z,120,2025-09-14T06:42:49.128Z,3,exchanges,no,normal,0.05,12.9,auto,0.05

            """))
        #expect(meals.events.compactMap(\.carbs) == [50, 20])
        #expect(meals.quarantined.count == 1 && type(meals, "exchanges")?.quarantined == 1)
    }

    @Test func eversenseRowsInMmolOrWithoutAUnit() throws {
        let c = try MappedSupport.bundled("eversense")
        let out = try MappedSupport.run(c, path: try MappedSupport.temporaryFile("ev.csv", """
            EventDateStr,EventTimeStr,Value,UnitMeasureVal,SensorID
            19-Oct-2021,3:00 PM,180,mg/dL,999999
            19-Oct-2021,3:05 PM,10.0,mmol,999999
            19-Oct-2021,3:10 PM,170,,999999

            """), timezone: "Europe/Rome")
        #expect(count(out, "glucose") == [180, 180])
        #expect(out.quarantined.count == 1 && out.input.stored == 2)
    }

    @Test func nutrisenseKetonesAndHeartRate() throws {
        let c = try MappedSupport.bundled("nutrisense")
        let out = try MappedSupport.run(c, path: try MappedSupport.temporaryFile("ns.csv", """
            Nutrisense,Test Person,,,,,,,,,,
            class,value,time,length,photo_url,description,occurred_at,body,updated_at,started_at,ended_at,created_by
            GlucoseMeasurement,102,,,,,8/23/24 6:00,,,,,
            KetoneMeasurement,0.4,,,,,8/23/24 6:05,,,,,
            HeartRateMeasurement,64,,,,,8/23/24 6:10,,,,,
            BloodPressureMeasurement,111/82,,,,,5/23/24 12:07,,,,,

            """), timezone: "America/Los_Angeles")
        #expect(count(out, "ketone") == [0.4] && count(out, "heart_rate") == [64])
        #expect(out.quarantined.count == 1 && type(out, "BloodPressureMeasurement")?.known == false)
    }

    @Test func nightscoutExporterFingerSticksAndCalibrations() throws {
        let c = try MappedSupport.bundled("nightscout-exporter-cgm")
        let out = try MappedSupport.run(c, path: try MappedSupport.temporaryFile("nse.csv", """
            # CGM ENTRIES
            Date,Time,Glucose (mg/dL),Type,Device,Trend,ID
            "3/24/2026","5:48:42 PM","130","sgv","","","A"
            "3/24/2026","5:50:00 PM","142","mbg","","","B"
            "3/24/2026","5:51:00 PM","","cal","","","C"

            """), timezone: "UTC")
        #expect(count(out, "glucose") == [130] && count(out, "blood_glucose") == [142])
        #expect(out.quarantined.isEmpty)
        #expect(type(out, "cal") == RowTypeCount(type: "cal", skipped: 1))
        #expect(out.input.stored == 2 && out.input.skipped == 1)
    }

    /// The import's summary line adds up: data rows = stored + quarantined + skipped, and each type's line.
    @Test func theSummaryAddsUp() {
        var report = RunReport()
        var f = InputFileInfo(path: "log.csv", format: "mylife", size: 10, rowsRead: 22, measurements: 9, events: 10, rejected: 1)
        f.stored = 19; f.skipped = 2; f.accounted = true
        f.rowTypes = [RowTypeCount(type: "Basalrate", stored: 2), RowTypeCount(type: "Boost", skipped: 2),
                      RowTypeCount(type: "Neu", quarantined: 1, known: false)]
        report.inputs = [f]
        let text = report.summary()
        #expect(text.contains("log.csv [mylife]: 22 data rows = 19 stored + 1 quarantined + 2 skipped → 9 measurements, 10 events"))
        #expect(text.contains("  Neu: 1 quarantined (unknown type)\n  Basalrate: 2 stored\n  Boost: 2 skipped"))
        #expect(text.contains("1 rows of an unknown type"))
    }
}
