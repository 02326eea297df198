import Foundation
import Testing

/// The Apple Health export, health-reports JSON and HealthPipe's own NDJSON account for every element
/// or document as the CSV and other JSON sources do (docs/reliability.md, "Every row accounted for"),
/// through the binary: the file's line adds up, an unknown type is warned about and the exit status
/// is 3. Before, none of the three had a line that added up, and an unknown type exited 0 unsaid.
@Suite struct SourceRowAccountingTests {
    typealias Line = (rows: Int, stored: Int, quarantined: Int, skipped: Int)

    /// `N data rows = S stored + Q quarantined + K skipped` of the file's summary line.
    private func accountedLine(_ stderr: String, _ file: String) -> Line? {
        guard let line = stderr.split(separator: "\n").first(where: { $0.contains(file) && $0.contains("data rows =") }) else { return nil }
        let n = Array(line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.suffix(6))
        return n.count == 6 ? (n[0], n[1], n[2], n[3]) : nil
    }

    private func importFile(_ text: String, _ name: String, _ format: String) throws -> (code: Int32, stderr: String, line: Line?) {
        let path = E2E.tempDir().appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let db = E2E.tempDir().appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", path, "--format", format, "--db", db.path])
        return (r.code, r.stderr, accountedLine(r.stderr, name))
    }

    static let at = "startDate=\"2024-01-02 10:00:00 +0100\" endDate=\"2024-01-02 10:00:00 +0100\""
    static func appleExport(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-06-01 08:10:05 +0200\"/>\n"
            + body + "</HealthData>\n"
    }
    static func appleRecord(_ type: String, _ value: String, unit: String = "count/min") -> String {
        " <Record type=\"\(type)\" sourceName=\"Watch\" unit=\"\(unit)\" \(at) value=\"\(value)\"/>\n"
    }

    /// Stored, skipped as known non-data (ExportDate, a ClinicalRecord), an identifier outside HealthKit
    /// (stored as read, but unknown) and a rejected record: 6 elements, every one on the line.
    @Test func anAppleExportAddsUpAndAnUnknownTypeExits3() throws {
        let body = Self.appleRecord("HKQuantityTypeIdentifierHeartRate", "61")
            + Self.appleRecord("HKQuantityTypeIdentifierHeartRate", "900")
            + Self.appleRecord("com.example.MoodScore", "3", unit: "count")
            + Self.appleRecord("HKQuantityTypeIdentifierStepCount", "120", unit: "count")
            + " <ClinicalRecord type=\"HKClinicalTypeIdentifierLabResultRecord\" identifier=\"1\" sourceName=\"Clinic\" fhirVersion=\"1.0.2\"/>\n"
        let r = try importFile(Self.appleExport(body), "export.xml", "apple-health")
        #expect(r.code == 3, "\(r.stderr)")
        #expect(r.stderr.contains("1 row of type 'com.example.MoodScore'"), "\(r.stderr)")
        #expect(r.line.map { [$0.rows, $0.stored, $0.quarantined, $0.skipped] } == [6, 3, 1, 2], "\(r.stderr)")
        #expect(r.stderr.contains("HKQuantityTypeIdentifierHeartRate: 1 stored, 1 quarantined"), "\(r.stderr)")
        #expect(r.stderr.contains("ClinicalRecord: 1 skipped"), "\(r.stderr)")
    }

    /// Nothing quarantined, yet an element outside Apple's format: exit 3, not 0.
    @Test func anAppleExportWithOnlyAnUnknownElementExits3() throws {
        let body = Self.appleRecord("HKQuantityTypeIdentifierHeartRate", "61") + " <MoodLog sourceName=\"Phone\" \(Self.at)/>\n"
        let r = try importFile(Self.appleExport(body), "export.xml", "apple-health")
        #expect(r.code == 3, "\(r.stderr)")
        #expect(r.stderr.contains("1 row of type 'MoodLog'"), "\(r.stderr)")
        #expect(r.line.map { [$0.rows, $0.stored, $0.quarantined, $0.skipped] } == [3, 1, 1, 1], "\(r.stderr)")
    }

    /// A report, an insulin entry, an entry of a kind HealthPipe has not (unknown), a bad insulin entry.
    @Test func healthReportsJSONAddsUpAndAnUnknownKindExits3() throws {
        let docs = """
            {"id": "a", "time": "2024-03-05T20:00:00+01:00", "values": [{"metric": "pain", "value": 3, "importance": 3}, {"metric": "mood", "value": 4, "importance": 2}]}
            {"id": "b", "kind": "insulin", "start": "2024-03-05T20:00:00+01:00", "units": 2}
            {"id": "c", "kind": "nap", "start": "2024-03-05T14:00:00+01:00", "minutes": 20}
            {"id": "d", "kind": "insulin", "start": "2024-03-05T21:00:00+01:00", "units": -4}

            """
        let r = try importFile(docs, "entries.json", "health-reports-json")
        #expect(r.code == 3, "\(r.stderr)")
        #expect(r.stderr.contains("1 row of type 'nap'"), "\(r.stderr)")
        #expect(r.line.map { [$0.rows, $0.stored, $0.quarantined, $0.skipped] } == [4, 2, 2, 0], "\(r.stderr)")
        #expect(r.stderr.contains("insulin: 1 stored, 1 quarantined"), "\(r.stderr)")
    }

    /// A measurement, an event, a record type HealthPipe does not write (unknown) and a line without a type.
    @Test func ndjsonRecordsAddUpAndAnUnknownTypeExits3() throws {
        let lines = """
            {"type":"measurement","subject":"me","metric":"glucose","source":"s","start":1707568200,"utc_offset":0,"value":97,"unit":"mg/dL"}
            {"type":"event","kind":"insulin","subject":"me","source":"s","start":1707548700,"utc_offset":0,"insulin_u":4.2}
            {"type":"annotation","subject":"me","start":1707548700,"note":"x"}
            {"subject":"me","metric":"glucose","start":1707568500,"value":98}

            """
        let r = try importFile(lines, "records.ndjson", "ndjson-source")
        #expect(r.code == 3, "\(r.stderr)")
        #expect(r.stderr.contains("1 row of type 'annotation'"), "\(r.stderr)")
        #expect(r.line.map { [$0.rows, $0.stored, $0.quarantined, $0.skipped] } == [4, 2, 2, 0], "\(r.stderr)")
        #expect(r.stderr.contains("measurement: 1 stored"), "\(r.stderr)")
    }
}
