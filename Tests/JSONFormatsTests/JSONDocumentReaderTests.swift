import Foundation
import Testing
@testable import JSONFormats

/// The streaming JSON reader every JSON source stands on: the same objects from every layout an export
/// comes in, a bad object reported with its line and raw text while the rest is read, objects cut by
/// the read buffer, escapes and paths through arrays.
@Suite struct JSONDocumentReaderTests {
    static let paths = ["sgv", "date", "note", "bolus.amount", "store.#.units"]

    /// (line, sgv, date, note, bolus amount, first store units) of each object, and the problems.
    static func read(_ text: String) throws -> (docs: [String], problems: [String]) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("jdr-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let table = JSONPathTable(paths)
        let reader = try JSONDocumentReader(path: url.path, table: table)
        var docs: [String] = [], problems: [String] = []
        try reader.forEach(progress: { _ in }, { d in
            docs.append([d.number(0).map { "\($0)" } ?? "-", d.number(1).map { "\($0)" } ?? "-", d.string(2) ?? "-",
                         d.number(3).map { "\($0)" } ?? "-", d.string(4) ?? "-"].joined(separator: " "))
        }, problem: { p in problems.append("\(p.line): \(p.reason) | \(p.raw)") })
        return (docs, problems)
    }

    static let objects = [
        #"{"sgv": 120, "date": 1700000000000, "note": "caf\u00e9 \"x\"", "bolus": {"amount": 2.5}}"#,
        #"{"sgv": -1.5e2, "date": 1700000300000, "store": [{"units": "mmol"}], "extra": [1, [2, {"deep": null}]]}"#,
        #"{"date": 1700000600000, "note": "😀\n"}"#,
    ]
    static let expected = ["120.0 1700000000000.0 café \"x\" 2.5 -", "-150.0 1700000300000.0 - - mmol", "- 1700000600000.0 😀\n - -"]

    @Test(arguments: [
        ("array", "[\n" + objects.joined(separator: ",\n") + "\n]\n"),
        ("lines", objects.joined(separator: "\n") + "\n"),
        ("concatenated", objects.joined()),
        ("crlf lines", objects.joined(separator: "\r\n")),
    ])
    func everyLayoutGivesTheSameObjects(layout: String, text: String) throws {
        let r = try Self.read(text)
        #expect(r.docs == Self.expected, "\(layout)")
        #expect(r.problems.isEmpty, "\(layout): \(r.problems)")
    }

    @Test func aSingleObjectIsOneDocument() throws {
        #expect(try Self.read(Self.objects[0]).docs == [Self.expected[0]])
    }

    @Test func aBadObjectIsReportedWithItsLineAndTheRestIsRead() throws {
        let text = "[\n" + Self.objects[0] + ",\n{\"sgv\": 12,, \"date\": 1}\n,\n42,\n" + Self.objects[2] + "\n]\n"
        let r = try Self.read(text)
        #expect(r.docs == [Self.expected[0], Self.expected[2]])
        #expect(r.problems.count == 2, "\(r.problems)")
        #expect(r.problems.first?.hasPrefix("3: invalid JSON in $[1]") == true, "\(r.problems)")
        #expect(r.problems.first?.contains("{\"sgv\": 12,, \"date\": 1}") == true, "\(r.problems)")
        #expect(r.problems.last?.hasPrefix("5: $[2] is not a JSON object") == true, "\(r.problems)")
    }

    /// A value that is not an object is quarantined as itself — not with the documents after it — and a
    /// scalar last in an array leaves the array closed (no "truncated download" line).
    @Test func aNonObjectIsItsOwnRawTextAndTheArrayStillCloses() throws {
        let last = try Self.read("[" + Self.objects[0] + ", 5]")
        #expect(last.docs == [Self.expected[0]])
        #expect(last.problems == ["1: $[1] is not a JSON object (starts with '5') | 5"], "\(last.problems)")
        let middle = try Self.read("[" + Self.objects[0] + ", \"text\" , [1, [2]], 7,\n" + Self.objects[2] + "]")
        #expect(middle.docs == [Self.expected[0], Self.expected[2]])
        #expect(middle.problems.map { $0.components(separatedBy: " | ").last! } == ["\"text\"", "[1, [2]]", "7"], "\(middle.problems)")
        let lines = try Self.read(Self.objects[0] + "\n5\n\"x\"\n" + Self.objects[2] + "\n")
        #expect(lines.docs == [Self.expected[0], Self.expected[2]])
        #expect(lines.problems.map { $0.components(separatedBy: " | ").last! } == ["5", "\"x\""], "\(lines.problems)")
    }

    @Test func aTruncatedFileSaysSo() throws {
        let r = try Self.read("[\n" + Self.objects[0] + ",\n{\"sgv\": 1")
        #expect(r.docs == [Self.expected[0]])
        #expect(r.problems.contains { $0.contains("ends inside this object") }, "\(r.problems)")
    }

    @Test func anObjectLargerThanTheReadBufferIsParsedWhole() throws {
        let big = String(repeating: "x", count: JSONDocumentReader.chunk + 1_000)
        let r = try Self.read("[" + Self.objects[0] + ",{\"sgv\": 99, \"note\": \"\(big)\"}," + Self.objects[2] + "]")
        #expect(r.docs.count == 3 && r.problems.isEmpty, "\(r.problems)")
        #expect(r.docs[1].hasPrefix("99.0 - xxx"))
    }

    @Test func nestingBeyondTheLimitIsAProblemNotACrash() throws {
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        let r = try Self.read("[" + Self.objects[0] + ",{\"a\": \(deep)}," + Self.objects[2] + "]")
        #expect(r.docs == [Self.expected[0], Self.expected[2]])
        #expect(r.problems.contains { $0.contains("nested deeper") }, "\(r.problems)")
    }
}
