import HealthPipeCore
import Testing
@testable import PostgresStore

/// The COPY-text pieces the PostgreSQL import decides by without a server: the set of stored lines a
/// re-import's rows are left out by (`CopyLineSet`: only a byte-identical line is found, whatever its
/// hash), and the staged rows of a derived table without their `hp_order` (`StagedTable.withoutOrder`).
@Suite struct PostgresCopyTextTests {
    static func lines(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func contains(_ set: CopyLineSet, _ line: String) -> Bool {
        Array(line.utf8).withUnsafeBufferPointer { set.contains($0) }
    }

    @Test func onlyIdenticalLinesAreFound() {
        let stored = [
            "default\tglucose\tDexcom\t1577836800\t1577836800\t5.1\t0\tmmol/L\t0\tin_range\t1\t3\t\t1",
            "default\tglucose\tDexcom\t1577837100\t1577837100\t5.1000000000000005\t0\tmmol/L\t0\tin_range\t1\t4\t\\N\t1",
            "default\tglucose\tDexcom\t1577837400\t1577837400\t7\t0\tmmol/L\t0\t\\N\t1\t5\ta\\tb\t1",
            "x",
        ]
        let set = CopyLineSet(Self.lines(stored.map { $0 + "\n" }.joined()))
        #expect(set.count == 4)
        for line in stored { #expect(Self.contains(set, line), "\(line)") }
        // One value a last digit apart, NULL against empty, an escape against its character, a byte
        // more or less, a byte changed inside the first eight (hashed a word at a time) or in the tail.
        for other in [
            "default\tglucose\tDexcom\t1577836800\t1577836800\t5.2\t0\tmmol/L\t0\tin_range\t1\t3\t\t1",
            "default\tglucose\tDexcom\t1577837100\t1577837100\t5.1000000000000006\t0\tmmol/L\t0\tin_range\t1\t4\t\\N\t1",
            "default\tglucose\tDexcom\t1577836800\t1577836800\t5.1\t0\tmmol/L\t0\tin_range\t1\t3\t\\N\t1",
            "default\tglucose\tDexcom\t1577837400\t1577837400\t7\t0\tmmol/L\t0\t\\N\t1\t5\ta\tb\t1",
            "default\tglucose\tDexcom\t1577837400\t1577837400\t7\t0\tmmol/L\t0\t\\N\t1\t5\ta\\tb\t12",
            "default\tglucose\tDexcom\t1577837400\t1577837400\t7\t0\tmmol/L\t0\t\\N\t1\t5\ta\\tb\t",
            "Default\tglucose\tDexcom\t1577836800\t1577836800\t5.1\t0\tmmol/L\t0\tin_range\t1\t3\t\t1",
            "default\tglucose\tDexcom\t1577836800\t1577836800\t5.1\t0\tmmol/L\t0\tin_range\t1\t3\t\t2",
            "", "y", "xx",
        ] {
            #expect(!Self.contains(set, other), "\(other)")
        }
        #expect(!Self.contains(CopyLineSet([]), "x"))
    }

    /// Many lines (the table grows, probes wrap around): each found, none of a shifted set.
    @Test func aBatchOfLinesIsFoundExactly() {
        let rows = (0..<20_000).map { "default\tglucose\tDexcom\t\(1_577_836_800 + 300 * $0)\t\(1_577_836_800 + 300 * $0)\t\($0 % 97)" }
        let set = CopyLineSet(Self.lines(rows.map { $0 + "\n" }.joined()))
        #expect(set.count == rows.count)
        #expect(rows.allSatisfy { Self.contains(set, $0) })
        let shifted = (0..<20_000).map { "default\tglucose\tDexcom\t\(1_577_836_800 + 300 * $0)\t\(1_577_836_800 + 300 * $0)\t\(($0 + 1) % 97)" }
        #expect(shifted.filter { Self.contains(set, $0) }.isEmpty)
    }

    @Test func derivedRowsLoseOnlyTheirArrivalOrder() {
        var staged = StagedTable(.dailyBands)
        for (band, percent) in [("in_range", 70.5), ("low\twith tab", 29.5)] {
            staged.buffer.text("default"); staged.buffer.text("2020-01-01"); staged.buffer.text("glucose"); staged.buffer.text(band)
            staged.buffer.double(percent)
            staged.endRow(subject: Symbol("default"))
        }
        #expect(String(decoding: staged.buffer.bytes, as: UTF8.self)
                == "default\t2020-01-01\tglucose\tin_range\t70.5\t0\ndefault\t2020-01-01\tglucose\tlow\\twith tab\t29.5\t1\n")
        #expect(String(decoding: staged.withoutOrder, as: UTF8.self)
                == "default\t2020-01-01\tglucose\tin_range\t70.5\ndefault\t2020-01-01\tglucose\tlow\\twith tab\t29.5\n")
    }
}
