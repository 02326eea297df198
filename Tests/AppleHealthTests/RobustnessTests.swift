@testable import AppleHealth
import Foundation
import HealthPipeCore
import Testing

/// Hostile and broken inputs: never expanded, never a crash, every complete record kept.
@Suite struct RobustnessTests {
    static let twoRecords = record("HKQuantityTypeIdentifierStepCount", value: "10", unit: "count")
        + record("HKQuantityTypeIdentifierStepCount", value: "20", unit: "count", start: "2024-01-02 10:01:00 +0100")

    /// External entity (XXE): the DOCTYPE is never read, so the entity is undefined and refused.
    @Test func externalEntityIsNeverResolved() throws {
        let prolog = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n]>\n"
        let body = Self.twoRecords
            + " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"&xxe;\" unit=\"count\" startDate=\"2024-01-02 11:00:00 +0100\" endDate=\"2024-01-02 11:00:00 +0100\" value=\"5\"/>\n"
        let run = try read(try write(healthXML(body, prolog: prolog)))
        #expect(run.measurements.map(\.value) == [10, 20])
        #expect(!run.measurements.contains { $0.source.text.contains("root:") })
        let error = try #require(run.rejects.last)
        #expect(error.reason.contains("xxe") && error.reason.contains("never expanded"))
        #expect(error.line == 9)
    }

    /// Billion laughs: refused at the first reference, in no time and no memory.
    @Test func billionLaughsIsNeverExpanded() throws {
        var prolog = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n <!ENTITY lol \"lol\">\n"
        prolog += " <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
        for i in 2...9 { prolog += " <!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1);", count: 10) + "\">\n" }
        prolog += "]>\n"
        let body = Self.twoRecords
            + " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"&lol9;\" unit=\"count\" startDate=\"2024-01-02 11:00:00 +0100\" endDate=\"2024-01-02 11:00:00 +0100\" value=\"5\"/>\n"
            + record("HKQuantityTypeIdentifierStepCount", value: "30", unit: "count", start: "2024-01-02 12:00:00 +0100")
        let run = try read(try write(healthXML(body, prolog: prolog)))
        // The element with the reference is quarantined; the record after it still lands.
        #expect(run.measurements.map(\.value) == [10, 20, 30])
        #expect(run.measurements.allSatisfy { $0.source.text.count < 100 })
        #expect(run.rejects.last?.reason.contains("lol9") == true)
    }

    /// Defence in depth: even a DOCTYPE that reached libxml2 declares nothing (no entityDecl or
    /// getEntity callbacks, no DTD loading), so its entities stay undefined.
    @Test func parserAloneNeverExpandsEntities() throws {
        let doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ENTITY a \"aaaaaaaaaa\">\n<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n"
            + "<!ENTITY ext SYSTEM \"file:///etc/hostname\">\n]>\n<HealthData>\n"
            + record("HKQuantityTypeIdentifierStepCount", value: "10", unit: "count")
            + " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"&b;&ext;\" unit=\"count\" startDate=\"2024-01-02 11:00:00 +0100\" endDate=\"2024-01-02 11:00:00 +0100\" value=\"5\"/>\n</HealthData>\n"
        let handler = ExportHandler(options: AppleHealthOptions(path: "raw.xml", subject: Symbol("me")))
        let parser = SAXPushParser(handler: handler)
        var bytes = Array(doc.utf8)
        bytes.withUnsafeMutableBytes { _ = parser.feed(UnsafeRawBufferPointer($0), final: true) }
        var stored: [HealthPipeCore.Measurement] = []
        handler.finish { stored += handler.ready.flatMap(\.measurements); handler.ready.removeAll() }
        #expect(stored.map(\.value) == [10])
        #expect(parser.error?.message.contains("Entity 'b' not defined") == true)
    }

    /// iOS 16: the VisionPrescription ATTLIST lacks its '>' and values hold U+000B. Imports fully.
    @Test func iOS16BrokenDTDAndVerticalTabs() throws {
        let prolog = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 12 -->
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
            <!ATTLIST VisionPrescription
              type CDATA #REQUIRED
              dateIssued CDATA #REQUIRED
              expirationDate CDATA #IMPLIED
              brand CDATA #IMPLIED

            <!ELEMENT RightEye EMPTY>
            <!ATTLIST Record
              type CDATA #REQUIRED
            >
            ]>

            """
        let body = record("HKQuantityTypeIdentifierStepCount", value: "10", unit: "count", source: "Ann\u{0B}’s iPhone")
            + record("HKQuantityTypeIdentifierStepCount", value: "20", unit: "count", source: "Ann’s iPhone", start: "2024-01-02 10:01:00 +0100",
                     children: "  <MetadataEntry key=\"note\" value=\"a\u{0B}b\"/>\n")
            + " <VisionPrescription type=\"glasses\" dateIssued=\"2023-01-01 00:00:00 +0000\"/>\n"
        let path = try write(healthXML(body, prolog: prolog))
        let run = try read(path)
        #expect(run.rejects.isEmpty)
        #expect(run.measurements.map(\.value) == [10, 20])
        #expect(run.measurements.map(\.source.text) == ["Ann’s iPhone", "Ann’s iPhone"])
        #expect(run.measurements[1].metadata?.contains("\"note\":\"ab\"") == true)
        #expect(run.warnings.contains { $0.contains("1 VisionPrescription") })
        // Line numbers still point into the original file.
        #expect(run.measurements[0].provenance.line == 18)
    }

    /// A file cut mid-record keeps every complete record and says where it stopped.
    @Test func truncatedFileKeepsCompleteRecords() throws {
        var records = ""
        for i in 0..<50 {
            records += record("HKQuantityTypeIdentifierHeartRate", value: String(60 + i), unit: "count/min",
                              start: String(format: "2024-01-02 10:%02d:00 +0100", i))
        }
        let full = healthXML(records)
        let cut = full.range(of: "value=\"95\"")!.lowerBound  // inside record 36
        let path = try write(String(full[..<cut]))
        let run = try read(path)
        #expect(run.measurements.count == 35)
        #expect(run.measurements.last?.value == 94)
        let error = try #require(run.rejects.last)
        #expect(error.line == 39)
        #expect(error.reason.contains("cannot be read past line 39") && error.reason.contains("truncated"), "\(error.reason)")
    }

    /// A DOCTYPE split across chunk boundaries is still removed (the head is buffered).
    @Test func prologFilterAcrossChunks() throws {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ENTITY a \"b\">\n<!ATTLIST X y CDATA #IMPLIED\n]>\n<HealthData>\u{0B}<Record/></HealthData>"
        var filter = PrologFilter()
        var out: [UInt8] = []
        for byte in Array(text.utf8) {
            [byte].withUnsafeBytes { filter.feed($0) { out += $0 } }
        }
        filter.feed(UnsafeRawBufferPointer(start: nil, count: 0), final: true) { out += $0 }
        #expect(String(decoding: out, as: UTF8.self) == "<?xml version=\"1.0\"?>\n\n\n\n\n<HealthData><Record/></HealthData>")
    }

    @Test func datesAndDevices() throws {
        #expect(HealthDate.parse("2019-05-14 18:52:09 -0400") == .init(utc: 1_557_874_329, offset: -14_400))
        #expect(HealthDate.parse("2024-01-01 01:01:36 +0200") == .init(utc: 1_704_063_696, offset: 7200))
        #expect(HealthDate.parse("2019-02-30 18:52:09 -0400") == nil)
        #expect(HealthDate.parse("2019-05-14T18:52:09 -0400") == nil)
        #expect(HealthDate.parse("2019-05-14 18:52:09") == nil)
        let fields = DeviceDescription.fields("<<HKDevice: 0x282e3a260>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone10,4, software:12.3>")
        #expect(fields.map(\.key) == ["name", "manufacturer", "model", "hardware", "software"])
        #expect(fields.map(\.value) == ["iPhone", "Apple Inc.", "iPhone", "iPhone10,4", "12.3"])
    }
}
