import Foundation
import Testing
@testable import JSONFormats

/// A file that is one object holding its records in one array member (Google Fit's All Data) is read
/// as that array's elements, one at a time, in whatever buffer sizes it arrives; the members before
/// the array are handed over; what does not fit the shape is reported, never silently dropped.
@Suite struct JSONEnvelopeTests {
    static let points = [#"{"sgv": 120, "date": 1}"#, #"{"sgv": 130, "date": 2, "store": [{"units": "x"}]}"#, #"{"sgv": 140, "date": 3}"#]

    static func read(_ text: String, chunk: Int = JSONDocumentReader.chunk, maxDocument: Int = JSONDocumentReader.maxDocument) throws -> (docs: [String], members: [String], problems: [String]) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("env-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let reader = try JSONDocumentReader(path: url.path, table: JSONPathTable(["sgv", "date"]), chunk: chunk,
                                            maxDocument: maxDocument, envelope: JSONEnvelope(arrayKey: "Data Points"))
        var docs: [String] = [], members: [String] = [], problems: [String] = []
        try reader.forEach(progress: { _ in }, { d in
            docs.append("\(d.line) \(d.path(ofSlot: 0)) \(d.number(0) ?? -1)")
        }, problem: { p in problems.append("\(p.line): \(p.reason)") }, member: { k, raw in members.append("\(k)=\(raw)") })
        return (docs, members, problems)
    }

    static let pretty = "{\n    \"Data Source\": \"raw:a\\u003cb\",\n    \"n\": {\"x\": [1, \"}\"]},\n    \"Data Points\": [\n        "
        + points.joined(separator: ",\n        ") + "\n    ]\n}"

    @Test(arguments: [JSONDocumentReader.chunk, 7, 64])
    func theArraysElementsAreTheDocuments(chunk: Int) throws {
        let r = try Self.read(Self.pretty, chunk: chunk)
        #expect(r.docs == ["5 $[0].sgv 120.0", "6 $[1].sgv 130.0", "7 $[2].sgv 140.0"], "chunk \(chunk)")
        #expect(r.members == [#"Data Source="raw:a\u003cb""#, #"n={"x": [1, "}"]}"#])
        #expect(r.problems.isEmpty, "\(r.problems)")
    }

    @Test func compactAndEmptyArraysRead() throws {
        let compact = try Self.read(#"{"Data Source":"s","Data Points":["# + Self.points.joined(separator: ",") + "]}")
        #expect(compact.docs.count == 3 && compact.problems.isEmpty)
        let empty = try Self.read("{\n    \"Data Source\": \"s\",\n    \"Data Points\": []\n}")
        #expect(empty.docs.isEmpty && empty.problems.isEmpty && empty.members == [#"Data Source="s""#])
    }

    /// Without the array member the object is one ordinary document.
    @Test func anObjectWithoutTheArrayIsOneDocument() throws {
        let r = try Self.read(#"{"sgv": 5, "date": 1}"#)
        #expect(r.docs == ["1 $.sgv 5.0"] && r.problems.isEmpty)
    }

    @Test func whatDoesNotFitTheShapeIsReported() throws {
        let cut = try Self.read(#"{"Data Source": "s", "Data Points": ["# + Self.points[0] + ",")
        #expect(cut.docs.count == 1 && cut.problems.count == 1 && cut.problems[0].contains("ends inside the array"), "\(cut.problems)")
        let unopened = try Self.read(#"{"Data Source": "s", "Data Po"#)
        #expect(unopened.docs.isEmpty && unopened.problems.count == 1 && unopened.problems[0].contains("before the object's array opens"))
        let notArray = try Self.read(#"{"Data Source": "s", "Data Points": 5}"#)
        #expect(notArray.docs.isEmpty && notArray.problems.contains { $0.contains("is not an array") }, "\(notArray.problems)")
        let after = try Self.read(#"{"Data Points": ["# + Self.points[0] + #"], "more": 1}"#)
        #expect(after.docs.count == 1 && after.problems.contains { $0.contains("goes on after its array") }, "\(after.problems)")
        // Members before the array too large to hold are refused as such, not taken for a cut file.
        let huge = try Self.read("{\"Data Source\": \"" + String(repeating: "x", count: 200) + "\",\n\"Data Points\": [\n"
                                 + Self.points[0] + "\n]}", chunk: 16, maxDocument: 64)
        #expect(huge.docs.isEmpty && huge.problems.first?.contains("larger than") == true, "\(huge.problems)")
        let unclosed = try Self.read(#"{"Data Points": ["# + Self.points[0] + "]")
        #expect(unclosed.docs.count == 1 && unclosed.problems.contains { $0.contains("closing '}'") }, "\(unclosed.problems)")
    }
}
