@testable import AppleHealth
import Foundation
import HealthPipeCore
import Testing
import HealthPipeTestSupport

/// The plain reader must be invisible: every export gives the same records, the same quarantine
/// (line, reason, raw text) and the same lines whether plain records are read without libxml2 or
/// not, however the input is cut into chunks (a record split anywhere waits for its end).
@Suite struct PlainRecordReaderTests {
    static let root = Repository.root

    /// Every Apple Health export the repository holds: real ones, samples, fuzz seeds and regressions.
    static let exports: [String] = {
        let folders = ["Tests/Fixtures/real/apple-health", "samples/apple-health", "Tests/Fixtures/apple-health",
                       "Fuzz/corpus/apple-xml", "Tests/Fixtures/fuzz-regressions/apple-xml"]
        var paths: [String] = []
        for folder in folders {
            let dir = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: dir.path) else { continue }
            for case let name as String in walker where !name.hasSuffix(".md") && !name.hasSuffix(".py") && !name.hasSuffix(".json")
                && !name.contains("workout-routes") && !name.contains("electrocardiograms") {
                var isDir: ObjCBool = false
                let path = dir.appendingPathComponent(name).path
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue { paths.append(path) }
            }
        }
        return paths.sorted()
    }()

    /// Plain records beside everything they must leave to libxml2, each next to a plain one.
    static let edges: String = {
        let hr = "HKQuantityTypeIdentifierHeartRate"
        var body = ""
        body += record(hr, value: "60", unit: "count/min")
        body += record(hr, value: "61", unit: "count/min", source: "Alex’s Watch &amp; &lt;phone&gt; &quot;x&quot; &apos;y&apos;")
        body += record(hr, value: "62", unit: "count/min", source: "char &#38; ref &#x41;")
        body += record(hr, value: "63", unit: "count/min", source: "tab\there")
        body += record(hr, value: "64", unit: "count/min", children: "  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"1\"/>\n  <MetadataEntry key=\"HKTimeZone\" value=\"Europe/Paris\"/>\n")
        body += record(hr, value: "65", unit: "count/min", children: "  <!-- a comment -->\n")
        body += record(hr, value: "66", unit: "count/min", children: "  <HeartRateVariabilityMetadataList>\n   <InstantaneousBeatsPerMinute bpm=\"61\" time=\"10:00:01.00 AM\"/>\n  </HeartRateVariabilityMetadataList>\n")
        body += " <Record\n   type=\"\(hr)\"\n   sourceName=\"multi line\" unit=\"count/min\"\n   startDate=\"2024-01-02 10:00:00 +0100\" endDate=\"2024-01-02 10:00:00 +0100\" value=\"67\"\n  />\n"
        body += " <Record type='\(hr)' sourceName=\"single quotes\" unit=\"count/min\" startDate=\"2024-01-02 10:00:00 +0100\" endDate=\"2024-01-02 10:00:00 +0100\" value=\"68\"/>\n"
        body += " <Record type=\"\(hr)\" type=\"\(hr)\" sourceName=\"twice\" unit=\"count/min\" startDate=\"2024-01-02 10:00:00 +0100\" value=\"69\"/>\n"
        body += record(hr, value: "70", unit: "count/min", source: "bad \u{1} control")
        body += " <Record type=\"\(hr)\"sourceName=\"no space\" unit=\"count/min\" startDate=\"2024-01-02 10:00:00 +0100\" value=\"71\"/>\n"
        body += record(hr, value: "72", unit: "count/min", source: "raw < angle")
        body += record(hr, value: "not a number", unit: "count/min")
        body += record(hr, value: "73", unit: "count/min", start: "not a date")
        body += record(hr, value: "74", unit: "count/min").replacingOccurrences(of: "\n", with: "\r\n")
        body += " <Record type=\"\(hr)\" x:y=\"ns\" sourceName=\"prefixed\" unit=\"count/min\" startDate=\"2024-01-02 10:00:00 +0100\" value=\"75\"/>\n"
        body += record(hr, value: "76", unit: "count/min", children: "  <MetadataEntry key=\"k\" value=\"v\">text</MetadataEntry>\n")
        body += record(hr, value: "77", unit: "count/min").replacingOccurrences(of: "/>", with: "></Recrd>")
        body += " stray text\n"
        body += record(hr, value: "78", unit: "count/min")
        body += " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"cuff\" startDate=\"2024-01-02 10:00:00 +0100\" endDate=\"2024-01-02 10:00:00 +0100\">\n"
            + record("HKQuantityTypeIdentifierBloodPressureSystolic", value: "120", unit: "mmHg")
            + record("HKQuantityTypeIdentifierBloodPressureDiastolic", value: "80", unit: "mmHg") + " </Correlation>\n"
        body += record(hr, value: "79", unit: "count/min", source: String(repeating: "long ", count: 20_000))
        body += record(hr, value: "80", unit: "count/min")
        return healthXML(body)
    }()

    struct Outcome: Equatable {
        var measurements: [HealthPipeCore.Measurement]
        var events: [Event]
        var profiles: [SubjectProfile]
        var rejects: [String]
    }

    func run(_ path: String, plain: Bool, chunk: Int = AppleHealthSource.chunkSize) throws -> Outcome {
        let source = AppleHealthSource(options: AppleHealthOptions(path: path, subject: Symbol("me")))
        source.readsPlainRecords = plain
        source.chunkSize = chunk
        // Every rejected row, as the quarantine keeps it (the context samples only the first few).
        let quarantine = tempDir().appendingPathComponent("quarantine.ndjson").path
        let writer = QuarantineWriter(path: quarantine)
        let context = StageContext.forTesting("apple-health", name: "apple", policy: .quarantine, quarantine: writer)
        var out = Outcome(measurements: [], events: [], profiles: [], rejects: [])
        try source.run(context: context) { batch in
            out.measurements += batch.measurements
            out.events += batch.events
            out.profiles += batch.profiles
        }
        writer.close()
        out.rejects = ((try? String(contentsOfFile: quarantine, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        return out
    }

    @Test(arguments: exports)
    func everyExportReadsTheSame(path: String) throws {
        let reference = try run(path, plain: false)
        for chunk in [AppleHealthSource.chunkSize, 4096, 97] {
            let plain = try run(path, plain: true, chunk: chunk)
            #expect(plain == reference, "\(path) in chunks of \(chunk)")
        }
    }

    @Test func theEdgesReadTheSame() throws {
        let path = try write(Self.edges)
        let reference = try run(path, plain: false)
        #expect(!reference.rejects.isEmpty, "the edge document quarantines nothing: it tests nothing")
        for chunk in [AppleHealthSource.chunkSize, 1, 2, 3, 7, 64, 1000] {
            let plain = try run(path, plain: true, chunk: chunk)
            if plain.measurements != reference.measurements {
                let a = plain.measurements.map { "\($0.value) \($0.source.text) line \($0.provenance.line)" }
                let b = reference.measurements.map { "\($0.value) \($0.source.text) line \($0.provenance.line)" }
                Issue.record("chunks of \(chunk): plain \(a.filter { !b.contains($0) }) reference \(b.filter { !a.contains($0) })")
            }
            #expect(plain.rejects == reference.rejects, "chunks of \(chunk): plain \(plain.rejects.filter { !reference.rejects.contains($0) }.map { $0.prefix(400) }) reference \(reference.rejects.filter { !plain.rejects.contains($0) }.map { $0.prefix(400) })")
            #expect(plain == reference, "chunks of \(chunk)")
        }
    }

    /// The plain path is taken: on a real export most records never reach libxml2.
    @Test func realRecordsAreReadPlainly() throws {
        let path = Self.root.appendingPathComponent("Tests/Fixtures/real/apple-health/apple-health-en-us-ios12.xml").path
        let handler = ExportHandler(options: AppleHealthOptions(path: path, subject: Symbol("me")))
        let parser = RecoveringParser(handler: handler, entryName: nil, readsPlainRecords: true)
        var filter = PrologFilter()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.withUnsafeBytes { all in filter.feed(all) { parser.feed($0) } }
        filter.feed(UnsafeRawBufferPointer(start: nil, count: 0), final: true) { parser.feed($0) }
        parser.finish()
        #expect(parser.plainRecords > handler.elementsRead / 2, "\(parser.plainRecords) of \(handler.elementsRead) elements read plainly")
    }
}
