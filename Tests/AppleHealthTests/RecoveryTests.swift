@testable import AppleHealth
import Foundation
import HealthPipeCore
import Testing

/// Recovery after a malformed element: the same records land and the same spans are quarantined
/// whatever the chunking (an element, a tag, even a `<` split across chunks).
@Suite struct RecoveryTests {
    /// Runs the parser on `xml` fed in pieces of `chunk` bytes; returns the heart-rate values and
    /// the quarantined (line, raw prefix) pairs.
    func parse(_ xml: String, chunk: Int, plain: Bool = true) -> (values: [Double], rejects: [(Int64, String)]) {
        let handler = ExportHandler(options: AppleHealthOptions(path: "/x.xml", subject: Symbol("me")))
        let parser = RecoveringParser(handler: handler, entryName: nil, readsPlainRecords: plain)
        var filter = PrologFilter()
        let bytes = Array(xml.utf8)
        var i = 0
        while i < bytes.count, !parser.ended {
            let n = min(chunk, bytes.count - i)
            bytes[i..<i + n].withUnsafeBytes { piece in filter.feed(piece) { parser.feed($0) } }
            i += n
        }
        filter.feed(UnsafeRawBufferPointer(start: nil, count: 0), final: true) { parser.feed($0) }
        parser.finish()
        handler.finish {}
        let values = handler.ready.flatMap(\.measurements).map(\.value)
        return (values, handler.rejects.map { ($0.line, $0.raw) })
    }

    /// libxml2 reports an undefined namespace prefix as an error that does not stop it; the fatal
    /// error after it (a mismatched end tag) must still stop it there, or the rest of the chunk is
    /// read without callbacks and lost.
    @Test(arguments: [1 << 20, 64, 1])
    func aFatalErrorAfterANonFatalOneStillRecovers(chunk: Int) {
        let hr = "HKQuantityTypeIdentifierHeartRate"
        func at(_ n: Int, _ value: String, children: String = "") -> String {
            record(hr, value: value, unit: "count/min", start: "2024-01-02 10:0\(n):00 +0100", children: children)
        }
        let xml = healthXML(at(1, "61")
            + at(2, "62").replacingOccurrences(of: " sourceName", with: " x:y=\"ns\" sourceName")
            + at(3, "63", children: "  <MetadataEntry key=\"k\" value=\"v\"/>\n").replacingOccurrences(of: "</Record>", with: "</Recrd>")
            + at(4, "64") + at(5, "65"))
        for plain in [false, true] {
            let (values, rejects) = parse(xml, chunk: chunk, plain: plain)
            #expect(values == [61, 62, 64, 65], "plain \(plain)")
            #expect(rejects.map(\.0) == [6], "plain \(plain)")
        }
    }

    static let broken = healthXML(
        record("HKQuantityTypeIdentifierHeartRate", value: "60", unit: "count/min")
        + record("HKQuantityTypeIdentifierHeartRate", value: "61", unit: "count/min", source: "A & B")
        + record("HKQuantityTypeIdentifierHeartRate", value: "62", unit: "count/min", children: "  <MetadataEntry key=\"k\" value=\"v\"/>\n")
            .replacingOccurrences(of: "</Record>", with: "</Recrd>")
        + " junk & text\n"
        + record("HKQuantityTypeIdentifierHeartRate", value: "63", unit: "count/min", source: "x\u{1}y")
        + record("HKQuantityTypeIdentifierHeartRate", value: "64", unit: "count/min")
        + record("HKQuantityTypeIdentifierHeartRate", value: "65", unit: "count/min",
                 children: String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40) + "\n")
        + record("HKQuantityTypeIdentifierHeartRate", value: "66", unit: "count/min"))

    @Test(arguments: [1, 2, 3, 7, 64, 1 << 20])
    func sameResultWhateverTheChunking(chunk: Int) {
        let (values, rejects) = parse(Self.broken, chunk: chunk)
        #expect(values == [60, 64, 66], "chunk \(chunk)")
        // 61 (a raw &), 62 (mismatched end tag), the junk text, 63 (a control character), 65 (too deep).
        #expect(rejects.map(\.0) == [5, 6, 9, 10, 12], "chunk \(chunk): \(rejects)")
        #expect(rejects[0].1.contains("value=\"61\"") && rejects[0].1.contains("2024-01-02 10:00:00 +0100"))
        #expect(rejects[1].1.hasPrefix("<Record") && rejects[1].1.contains("</Recrd>"))
        #expect(rejects[2].1.hasPrefix("junk"))
    }

    @Test func skipperFollowsQuotesCommentsAndSelfClosingTags() {
        let text = " <R a=\"x>y\" b='</R>'/>\n <!-- <R> --> <R><![CDATA[</R>]]><c/></R>\n</HealthData>"
        var skipper = ElementSkipper(offset: 0, line: 1)
        var events: [ElementSkipper.Event] = []
        Array(text.utf8).withUnsafeBytes { bytes in
            var i = 0
            while let e = skipper.next(in: bytes, from: &i) { events.append(e) }
        }
        let ends = events.compactMap { if case .end(let at, _) = $0 { return at } else { return nil } }
        #expect(events.count == 5 && ends.count == 2, "\(events)")
        if case .rootEnd = events.last {} else { Issue.record("no root end: \(events)") }
    }
}
