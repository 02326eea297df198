@testable import CSVFormats
import Foundation
import HealthPipeCore
import Testing

/// Line ends, unbalanced quotes and DST fall-back in the CSV engine.
@Suite struct LineAndQuoteTests {
    func lines(_ text: String, chunk: Int) -> [String] {
        var splitter = LineSplitter(maxLineBytes: 64)
        var out: [String] = []
        let bytes = Array(text.utf8)
        var i = 0
        func take(_ line: LineSplitter.Line) {
            switch line {
            case .text(let b): out.append(String(decoding: b, as: UTF8.self))
            case .overlong(let head): out.append("OVERLONG:" + String(decoding: head.prefix(3), as: UTF8.self))
            }
        }
        while i < bytes.count {
            bytes[i..<min(bytes.count, i + chunk)].withUnsafeBytes { splitter.split($0, take) }
            i += chunk
        }
        splitter.finish(take)
        return out
    }

    @Test(arguments: [1, 2, 3, 1000])
    func crLfAndCrlfAreLineEndsWhateverTheChunking(chunk: Int) {
        let text = "a\nb\r\nc\rd\r\r\ne" + String(repeating: "x", count: 100) + "\nf"
        #expect(lines(text, chunk: chunk) == ["a\n", "b\r\n", "c\r", "d\r", "\r\n", "OVERLONG:exx", "f"])
    }

    func rows(_ text: String) throws -> [(line: Int64, fields: Int, problem: RowProblem?)] {
        let path = "/mem/quotes-\(UUID().uuidString).csv"
        ByteInput.provide(Array(text.utf8), as: path)
        var out: [(Int64, Int, RowProblem?)] = []
        try CSVRowReader(path: path).forEachRow { out.append(($0.line, $0.count, $0.problem)) }
        return out
    }

    @Test func aStrayQuoteSwallowsOnlyItsOwnLine() throws {
        let r = try rows("h1,h2,h3\n1,2,3\n4,\"5,6\n7,8,9\n10,11,12\n")
        #expect(r.map(\.line) == [1, 2, 3, 4, 5])
        #expect(r[2].problem == .unbalancedQuote(lastLine: 3))
        #expect(r[3].fields == 3 && r[4].fields == 3)
    }

    @Test func aRealMultiLineCellStaysOneRow() throws {
        let r = try rows("note,a,b\n\"first line\nsecond, with comma\",2,3\n4,5,6\n")
        #expect(r.count == 3 && r[1].problem == nil && r[1].fields == 3 && r[2].line == 4)
    }

    @Test func aQuoteOpenAtTheEndIsReported() throws {
        let r = try rows("a,b\n1,2\n3,\"4\n")
        #expect(r.last?.problem == .unbalancedQuote(lastLine: 3))
    }

    func place(_ wall: [String], zone: String = "Europe/London", pairs: Bool = false) throws -> [Int64] {
        var placer = LocalTimePlacer(zone: TimeZone(identifier: zone), ambiguous: .fileOrder, nonexistent: .shiftForward,
                                     file: "f", format: "t", pairsEqualClockTimes: pairs)
        let pattern = try TimestampPattern("%Y-%m-%dT%H:%M:%S")
        return try wall.map { try placer.place(pattern.parse($0)!, line: 1).utc }
    }

    /// Two rows at one clock time in the repeated hour are one instant (a bolus and its wizard row), unless
    /// the format sorts by the clock and opted in to reading them as the two passes (LibreView).
    @Test func equalClockTimesAreOneInstantUnlessTheFormatPairsThem() throws {
        let wall = ["00:50", "01:10", "01:10", "01:20"].map { "2024-10-27T\($0):00" }
        let plain = try place(wall)
        #expect(plain[1] == plain[2])
        let paired = try place(wall, pairs: true)
        #expect(paired[2] - paired[1] == 3600)
    }

    @Test func theSecondPassThroughTheRepeatedHourIsTheLaterInstant() throws {
        let wall = ["00:50", "01:10", "01:50", "01:10", "01:50", "02:10"].map { "2024-10-27T\($0):00" }
        let utc = try place(wall)
        #expect(utc == [1_729_986_600, 1_729_987_800, 1_729_990_200, 1_729_991_400, 1_729_993_800, 1_729_995_000])
        #expect(Set(utc).count == utc.count)
        // Newest first (after enough rows to show the file's direction): the later pass comes first.
        let lead = ["03:30", "03:10", "02:50", "02:30"].map { "2024-10-27T\($0):00" }
        let reversed = try place(lead + wall.reversed())
        #expect(Array(reversed.dropFirst(4)) == utc.reversed())
    }
}
