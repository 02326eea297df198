@testable import AppleHealth
import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing

/// A rejected record is quarantined whole, byte for byte, whichever reader read it (the plain record
/// reader or libxml2): its value, unit and dates may follow kilobytes of other attributes or children.
@Suite struct QuarantinedElementTests {
    static let hr = "HKQuantityTypeIdentifierHeartRate"

    @Test func aRecordWithALongAttributeKeepsItsValueUnitAndDates() throws {
        let plain = record(Self.hr, value: "900", unit: "count/min", source: String(repeating: "W", count: 5000))
        let parsed = record(Self.hr, value: "901", unit: "count/min", source: String(repeating: "V", count: 5000),
                            start: "2024-01-02 10:05:00 +0100", children: "  <!-- read by libxml2 -->\n")
        let run = try read(try write(healthXML(plain + parsed)))
        #expect(run.rejects.count == 2 && run.measurements.isEmpty)
        #expect(run.rejects.map(\.raw) == [String(plain.dropFirst().dropLast()), String(parsed.dropFirst().dropLast())])
    }

    @Test func aRecordWithManyChildrenIsKeptWhole() throws {
        let entries = (0..<80).map { "  <MetadataEntry key=\"k\($0)\" value=\"\(String(repeating: "y", count: 100))\"/>\n" }.joined()
        let beats = "  <HeartRateVariabilityMetadataList>\n"
            + (0..<100).map { "   <InstantaneousBeatsPerMinute bpm=\"60\" time=\"10:04:\($0 % 60).00 AM\"/>\n" }.joined()
            + "  </HeartRateVariabilityMetadataList>\n"
        let withEntries = record(Self.hr, value: "900", unit: "count/min", children: entries)
        let withBeats = record(Self.hr, value: "902", unit: "count/min", start: "2024-01-02 10:05:00 +0100", children: beats)
        let run = try read(try write(healthXML(withEntries + withBeats)))
        #expect(run.rejects.map(\.raw) == [String(withEntries.dropFirst().dropLast()), String(withBeats.dropFirst().dropLast())])
    }

    @Test func anActivitySummaryWithoutADateKeepsItsBytes() throws {
        let summary = " <ActivitySummary dateComponents=\"2024-13-40\" activeEnergyBurned=\"410\" activeEnergyBurnedUnit=\"kcal\"/>\n"
        let run = try read(try write(healthXML(summary)))
        #expect(run.rejects.map(\.raw) == [String(summary.dropFirst().dropLast())])
    }
}

/// Issue 36: rejected Apple XML records lost their value, unit or dates in the quarantine's raw text.
/// Each kind of refused element, read by either reader in chunks down to one byte, keeps its own text.
@Suite struct QuarantinedElementKindsTests {
    static let elements: [String] = [
        record("HKQuantityTypeIdentifierHeartRate", value: "61", unit: "count/min", start: "2024-01-02 25:00:00 +0100"),
        record("HKQuantityTypeIdentifierHeartRate", value: "62", unit: "count/min", start: "2024-01-02 10:00:00 +0100",
               end: "2024-01-02 09:00:00 +0100"),
        " <Record sourceName=\"Phone\" unit=\"count\" startDate=\"2024-01-02 10:00:00 +0100\" endDate=\"2024-01-02 10:00:00 +0100\" value=\"3\"/>\n",
        record("HKQuantityTypeIdentifierInsulinDelivery", value: "lots", unit: "IU"),
        record("HKQuantityTypeIdentifierInsulinDelivery", value: "-3", unit: "IU"),
        record("HKQuantityTypeIdentifierStepCount", value: "abc", unit: "count"),
        record("HKQuantityTypeIdentifierBloodGlucose", value: "5.5", unit: "kg"),
        record("HKQuantityTypeIdentifierBloodGlucose", value: "0", unit: "mg/dL",
               children: "  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n"),
        " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" sourceName=\"Watch\" startDate=\"soon\" endDate=\"later\"/>\n",
        " <Correlation type=\"com.example.Combo\" sourceName=\"Cuff\" startDate=\"2024-01-02 10:00:00 +0100\" endDate=\"2024-01-02 10:00:00 +0100\"/>\n",
    ]

    @Test(arguments: [true, false])
    func everyRefusedElementKeepsItsOwnText(plain: Bool) throws {
        for element in Self.elements {
            let path = try write(healthXML(element))
            for chunk in [AppleHealthSource.chunkSize, 1, 7, 100] {
                var options = AppleHealthOptions(path: path, subject: Symbol("me"))
                options.types = TypeFilter()
                let source = AppleHealthSource(options: options)
                source.readsPlainRecords = plain
                source.chunkSize = chunk
                let context = StageContext.forTesting("apple-health", name: "apple", policy: .skip)
                try source.run(context: context) { _ in }
                #expect(context.sampleErrors.map(\.raw) == [String(element.dropFirst().dropLast())], "chunk \(chunk), plain \(plain)")
                #expect(context.inputs.first?.rejected == 1 && context.inputs.first.map { $0.stored + $0.skipped } == 1)
            }
        }
    }
}
