@testable import AppleHealth
import Foundation
import HealthPipeCore
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
