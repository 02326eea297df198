@testable import AppleHealth
import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing

/// Every element of an Apple Health export is accounted for (docs/reliability.md, "Every row
/// accounted for"): stored, skipped as a known non-data element, or quarantined with its whole
/// text, counted per type; a type outside HealthKit and an element outside Apple's format are
/// counted as unknown and warned about. Before, the export had no per-type counts, a bad route
/// point was quarantined with its workout's dates, and an unknown element was dropped in silence.
@Suite struct AppleRowAccountingTests {
    static let at = "startDate=\"2024-01-02 10:00:00 +0100\" endDate=\"2024-01-02 10:00:00 +0100\""
    static let badLocation = "<Location date=\"2024-01-02 10:01:00 +0100\" latitude=\"95.5\" longitude=\"2.35\" altitude=\"40\"/>"
    static let unknownElement = "<MoodLog sourceName=\"Phone\" \(at) mood=\"calm\"/>"

    static var body: String {
        " <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1980-01-01\"/>\n"
            + record("HKQuantityTypeIdentifierHeartRate", value: "61", unit: "count/min")
            + record("HKQuantityTypeIdentifierHeartRate", value: "900", unit: "count/min", start: "2024-01-02 10:05:00 +0100")
            + record("HKQuantityTypeIdentifierSomethingNewInIOS27", value: "7", unit: "count")
            + record("com.example.CustomThing", value: "blue")
            + " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Cuff\" \(at)>\n"
            + "  <Record type=\"HKQuantityTypeIdentifierBloodPressureSystolic\" sourceName=\"Cuff\" unit=\"mmHg\" \(at) value=\"120\"/>\n"
            + " </Correlation>\n"
            + " <ClinicalRecord type=\"HKClinicalTypeIdentifierLabResultRecord\" identifier=\"1\" sourceName=\"Clinic\" fhirVersion=\"1.0.2\"/>\n"
            + " \(unknownElement)\n"
            + " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\" sourceName=\"Watch\" "
            + "startDate=\"2024-01-02 10:00:00 +0100\" endDate=\"2024-01-02 10:30:00 +0100\">\n"
            + "  <WorkoutRoute sourceName=\"Watch\" \(at)>\n"
            + "   \(badLocation)\n"
            + "   <Location date=\"2024-01-02 10:02:00 +0100\" latitude=\"48.85\" longitude=\"2.35\" altitude=\"40\"/>\n"
            + "  </WorkoutRoute>\n"
            + " </Workout>\n"
            + " <ActivitySummary dateComponents=\"2024-01-02\" activeEnergyBurned=\"410\" activeEnergyBurnedGoal=\"500\" activeEnergyBurnedUnit=\"kcal\"/>\n"
    }

    private func types(_ run: SourceRun) -> [String: RowTypeCount] {
        Dictionary((run.input?.rowTypes ?? []).map { ($0.type, $0) }, uniquingKeysWith: { a, _ in a })
    }

    @Test func everyElementIsStoredSkippedOrQuarantinedUnderItsType() throws {
        let run = try read(try write(healthXML(Self.body)))
        let input = try #require(run.input)
        #expect(input.accounted)
        // ExportDate, Me, 4 records, a correlation, ClinicalRecord, MoodLog, a workout, its bad route point, ActivitySummary.
        #expect(input.stored + input.rejected + input.skipped == 12)
        #expect(input.stored == 6 && input.rejected == 3 && input.skipped == 3)
        let t = types(run)
        #expect(t["HKQuantityTypeIdentifierHeartRate"].map { [$0.stored, $0.quarantined] } == [1, 1])
        #expect(t["HKQuantityTypeIdentifierSomethingNewInIOS27"].map { ($0.stored, $0.known) } ?? (0, false) == (1, true))
        #expect(t["com.example.CustomThing"].map { ($0.stored, $0.known) } ?? (0, true) == (1, false))
        #expect(t["HKCorrelationTypeIdentifierBloodPressure"].map { ($0.skipped, $0.known) } ?? (0, false) == (1, true))
        #expect(t["ClinicalRecord"].map { ($0.skipped, $0.known) } ?? (0, false) == (1, true))
        #expect(t["MoodLog"].map { ($0.quarantined, $0.known) } ?? (0, true) == (1, false))
        #expect(t["ExportDate"]?.skipped == 1 && t["Me"]?.stored == 1 && t["Workout"]?.stored == 1 && t["ActivitySummary"]?.stored == 1)
        #expect(t["WorkoutRoute Location"]?.quarantined == 1)
        #expect(run.warnings.contains { $0.contains("1 row of type 'com.example.CustomThing'") })
        #expect(run.warnings.contains { $0.contains("1 row of type 'MoodLog'") })
        #expect(run.warnings.contains { $0.contains("not imported: 1 ClinicalRecord") })
    }

    /// A refused route point keeps its own date and position (it was quarantined with its workout's
    /// source and dates); an unknown element keeps its whole text.
    @Test func aRefusedChildAndAnUnknownElementKeepTheirOwnText() throws {
        let run = try read(try write(healthXML(Self.body)))
        #expect(run.rejects.contains { $0.raw == Self.badLocation && $0.reason.contains("Location") })
        #expect(run.rejects.contains { $0.raw == Self.unknownElement && $0.reason.contains("<MoodLog>") })
    }

    /// The per-type counts are the same whichever reader read the records (the plain reader or libxml2).
    @Test func bothReadersCountAlike() throws {
        let path = try write(healthXML(Self.body))
        var options = AppleHealthOptions(path: path, subject: Symbol("me"))
        options.types = TypeFilter()
        let source = AppleHealthSource(options: options)
        source.readsPlainRecords = false
        let context = StageContext.forTesting("apple-health", name: "apple", policy: .skip)
        try source.run(context: context) { _ in }
        let plain = try read(path)
        #expect(context.inputs.first?.rowTypes == plain.input?.rowTypes)
        #expect(context.inputs.first?.rowTypes.isEmpty == false)
    }

    /// Records the options leave out are skipped under their type, so the line still adds up.
    @Test func recordsLeftOutByTheOptionsAreSkipped() throws {
        let run = try read(try write(healthXML(Self.body)), exclude: ["heart_rate"])
        let t = types(run)
        #expect(t["HKQuantityTypeIdentifierHeartRate"].map { [$0.stored, $0.quarantined, $0.skipped] } == [0, 0, 2])
        #expect(run.input.map { $0.stored + $0.rejected + $0.skipped } == 12)
    }

    /// A type outside HealthKit that an allow list leaves out is still warned about, as skipped (the
    /// warning called every unstored row of an unknown type quarantined).
    @Test func anUnknownTypeLeftOutByTheOptionsIsWarnedAboutAsSkipped() throws {
        let run = try read(try write(healthXML(Self.body)), types: ["heart_rate"])
        #expect(types(run)["com.example.CustomThing"].map { [$0.stored, $0.quarantined, $0.skipped] } == [0, 0, 1])
        #expect(run.warnings.contains { $0.contains("1 row of type 'com.example.CustomThing'") && $0.contains("(0 quarantined, 1 skipped)") },
                "\(run.warnings)")
    }
}

/// The real exports in the repository: every top-level element (a line opening with ` <` and a
/// capital, counted here from the text) is on the file's line, and every type is known.
@Suite struct AppleRealRowAccountingTests {
    @Test(arguments: ["apple-health-en-fr-ios14-garmin.xml", "apple-health-en-us-ios10-food.xml",
                      "apple-health-en-us-ios12.xml", "apple-health-ko-kr-watchos8.xml"])
    func everyElementOfARealExportIsCounted(_ name: String) throws {
        let path = Repository.url("Tests/Fixtures/real/apple-health/\(name)").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let elements = text.split(separator: "\n").filter { line in
            line.count > 2 && line.hasPrefix(" <") && line.dropFirst(2).first!.isUppercase
        }.count
        let run = try read(path)
        let input = try #require(run.input)
        #expect(input.stored + input.rejected + input.skipped == Int64(elements))
        let unknown = input.rowTypes.filter { !$0.known }
        #expect(unknown.isEmpty, "\(unknown)")
        #expect(input.rowTypes.reduce(0) { $0 + $1.rows } == Int64(elements))
    }
}
