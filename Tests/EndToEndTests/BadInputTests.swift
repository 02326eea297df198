import Foundation
import Testing

/// Broken files: each gives a clear message naming file and line, quarantines what it must,
/// lands every valid row, and never crashes.
@Suite struct BadInputTests {
    let clarity = E2E.samples.appendingPathComponent("dexcom-clarity/cgmquantify_test_file.csv")
    var original: Data { try! Data(contentsOf: clarity) }

    struct Outcome {
        var result: E2E.Result
        var db: URL
        var quarantine: [String]
    }

    func importFile(_ data: Data, name: String = "bad.csv", extra: [URL] = []) throws -> Outcome {
        let dir = E2E.tempDir()
        let file = dir.appendingPathComponent(name)
        try data.write(to: file)
        let db = dir.appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", file.path] + extra.map(\.path) + ["--db", db.path, "--timezone", "UTC"])
        let q = (try? String(contentsOf: dir.appendingPathComponent("h.quarantine.ndjson"), encoding: .utf8)) ?? ""
        return Outcome(result: r, db: db, quarantine: q.split(separator: "\n").map(String.init))
    }

    func lines(_ data: Data) -> [Data] { data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Data($0) } }
    func join(_ lines: [Data]) -> Data { Data(lines.joined(separator: [UInt8(ascii: "\n")])) }

    @Test func truncatedFileLandsEveryCompleteRow() throws {
        var ls = lines(original)
        // Cut the file inside line 1001: "...,iPhone G6,1" instead of the full row.
        ls = Array(ls[0..<1000]) + [ls[1000].prefix(45)]
        let o = try importFile(join(ls))
        #expect(o.result.code == 3)
        #expect(E2E.count(o.db, "measurements") == 1000 - 12)
        #expect(o.quarantine.count == 1)
        #expect(o.quarantine[0].contains("\"line\":1001") && o.quarantine[0].contains("truncated"))
        #expect(o.result.stderr.contains("bad.csv:1001"))
    }

    @Test func wrongSeparatorInDataRowsIsQuarantinedNotDropped() throws {
        var ls = lines(original)
        ls[500] = Data(String(decoding: ls[500], as: UTF8.self).replacingOccurrences(of: ",", with: ";").utf8)
        let o = try importFile(join(ls))
        #expect(o.result.code == 3)
        #expect(E2E.count(o.db, "measurements") == 2147)
        #expect(o.quarantine.count == 1 && o.quarantine[0].contains("\"line\":501") && o.quarantine[0].contains("wrong separator"))
    }

    @Test func semicolonSeparatedExportIsRecognised() throws {
        let text = String(decoding: original, as: UTF8.self).replacingOccurrences(of: ",", with: ";")
        let o = try importFile(Data(text.utf8))
        #expect(o.result.code == 0, "\(o.result.stderr)")
        #expect(E2E.count(o.db, "measurements") == 2148)
    }

    @Test func garbageBytesAndNonUTF8AreQuarantined() throws {
        var ls = lines(original)
        ls[100] = Data([0xFF, 0xFE, 0x00, 0x01, 0x80, 0x81, 0x2C, 0xC3, 0x28, 0x2C, 0x9F])
        // A Latin-1 "é" (0xE9, invalid UTF-8) inside the glucose value.
        ls[200] = Data("212,2016-10-25T03:04:17,EGV,,,,iPhone G6,1".utf8) + Data([0xE9]) + Data("3,,,,".utf8)
        let o = try importFile(join(ls))
        #expect(o.result.code == 3)
        #expect(E2E.count(o.db, "measurements") == 2146)
        #expect(o.quarantine.count == 2)
        #expect(o.quarantine.contains { $0.contains("\"line\":101") })
        #expect(o.quarantine.contains { $0.contains("\"line\":201") && $0.contains("not a number") })
    }

    @Test func tenMegabyteLineIsRejectedAndTheRestLands() throws {
        var ls = lines(original)
        ls.insert(Data(repeating: UInt8(ascii: "x"), count: 10 << 20), at: 300)
        let o = try importFile(join(ls))
        #expect(o.result.code == 3)
        #expect(E2E.count(o.db, "measurements") == 2148)
        #expect(o.quarantine.count == 1 && o.quarantine[0].contains("\"line\":301"))
        #expect(o.quarantine[0].utf8.count < 100_000)
    }

    @Test func emptyFileAndUnknownFormatAreClearErrors() throws {
        let empty = try importFile(Data(), name: "empty.csv")
        #expect(empty.result.code == 1 && empty.result.stderr.contains("empty.csv") && empty.result.stderr.contains("empty"))
        let odd = try importFile(Data("name,age\nbob,3\n".utf8), name: "people.csv")
        #expect(odd.result.code == 1 && odd.result.stderr.contains("people.csv: unknown format"))
        // The sample starts with a UTF-8 BOM, which becomes a UTF-16LE byte-order mark: decoded and imported.
        let utf16 = try importFile(String(decoding: original, as: UTF8.self).data(using: .utf16LittleEndian)!, name: "u16.csv")
        #expect(utf16.result.code == 0, "\(utf16.result.stderr)")
        #expect(E2E.count(utf16.db, "measurements") == 2148)
    }

    @Test func headerOnlyFileImportsNothingCleanly() throws {
        let header = lines(original)[0]
        let o = try importFile(header + Data("\n".utf8))
        #expect(o.result.code == 0, "\(o.result.stderr)")
        #expect(E2E.count(o.db, "measurements") == 0)
    }

    @Test func oneBadFileDoesNotStopTheOthers() throws {
        let o = try importFile(Data("garbage\u{0}\u{1}".utf8), name: "junk.bin", extra: [clarity])
        #expect(o.result.code == 1)
        #expect(o.result.stderr.contains("junk.bin"))
        #expect(E2E.count(o.db, "measurements") == 2148)
    }
}
