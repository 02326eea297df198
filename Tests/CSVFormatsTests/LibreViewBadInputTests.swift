import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import CSVFormats

/// Broken LibreView input: cut-off files, garbage cells, undecidable or contradictory dates, no zone.
@Suite struct LibreViewBadInputTests {
    typealias F = LibreViewFixture
    let sample = SourceHarness.sample("libreview/cgm_format_FreeStyle_Libre_3_synthetic.csv")

    @Test func truncatedFileLandsCompleteRowsAndQuarantinesTheCutOne() throws {
        let lines = try String(contentsOfFile: sample, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        // Keep lines 1–99 and cut line 100 in the middle of its glucose value (`…,0,1` of `…,0,104,,,`).
        let cut = lines[99].range(of: ",0,")!.upperBound
        let partial = String(lines[99][..<lines[99].index(after: cut)])
        let path = try SourceHarness.file(lines[0..<99].joined(separator: "\n") + "\n" + partial, name: "cut.csv")
        let r = try SourceRunner.run(LibreViewSource(options: SourceHarness.options(path), dateOrder: nil))

        #expect(r.measurements.count == 97)  // lines 3–99
        #expect(r.measurements.last?.provenance.line == 99)
        #expect(r.input.rowsRead == 100 && r.input.rejected == 1)
        #expect(r.context.quarantined == 1)
        let q = try #require(r.quarantined.first)
        #expect(q["file"] as? String == path)
        #expect(q["line"] as? Int == 100)
        #expect(q["raw"] as? String == partial)
        #expect((q["reason"] as? String)?.contains("truncated?") == true)
    }

    @Test func garbageGlucoseIsQuarantinedAndOtherRowsLand() throws {
        var f = F()
        f.row("13-04-2024 08:00", 0, [F.historic: "101"])
        f.row("13-04-2024 08:05", 0, [F.historic: "9x8"])
        f.row("13-04-2024 08:10", 1, [F.scan: ""])
        f.row("13-04-2024 08:15", 0, [F.historic: "103"])
        f.row("13-04-2024 8:2O", 0, [F.historic: "104"])
        f.row("13-04-2024 08:25", 9, [F.historic: "140", F.notes: "future type"])
        let path = try SourceHarness.file(f.text)
        let r = try SourceRunner.run(LibreViewSource(options: SourceHarness.options(path), dateOrder: nil))

        #expect(r.measurements.map(\.value) == [101, 103])
        // A type LibreView does not document is quarantined whole (its 140 with it), not kept as an empty note.
        #expect(r.events.isEmpty)
        #expect(r.input.rejected == 4)
        #expect(r.quarantined.map { $0["line"] as? Int } == [4, 5, 7, 8])
        let reasons = r.quarantined.compactMap { $0["reason"] as? String }
        #expect(reasons[0] == "Historic Glucose '9x8' is not a glucose reading")
        #expect(reasons[1] == "Scan Glucose row without a value")
        #expect(reasons[2].contains("unreadable timestamp '13-04-2024 8:2O'"))
        #expect(reasons[3] == "record type 9 is not one LibreView documents (0–6): the row is kept here whole")
        #expect(r.quarantined[3]["raw"] as? String == f.lines[7])
        #expect(r.quarantined[0]["raw"] as? String == f.lines[3])
    }

    @Test func shortRowInsideTheFileIsRejected() throws {
        var f = F()
        f.row("13-04-2024 08:00", 0, [F.historic: "101"])
        f.lines.append("FreeStyle Libre 3,SERIAL-1,13-04-2024 08:05,0,10")
        f.row("13-04-2024 08:10", 0, [F.historic: "103"])
        let r = try SourceRunner.run(LibreViewSource(options: SourceHarness.options(try SourceHarness.file(f.text)), dateOrder: nil))
        #expect(r.measurements.map(\.value) == [101, 103])
        #expect(r.quarantined.first?["reason"] as? String == "row has 5 of the header's 19 columns (truncated?)")
    }

    @Test func skipPolicyCountsWithoutWriting() throws {
        var f = F()
        f.row("13-04-2024 08:00", 0, [F.historic: "abc"])
        let r = try SourceRunner.run(LibreViewSource(options: SourceHarness.options(try SourceHarness.file(f.text)), dateOrder: nil),
                                      policy: .skip)
        #expect(r.context.skipped == 1 && r.quarantined.isEmpty && r.measurements.isEmpty)
    }

    @Test func failPolicyStopsTheRun() throws {
        var f = F()
        f.row("13-04-2024 08:00", 0, [F.historic: "abc"])
        let source = LibreViewSource(options: SourceHarness.options(try SourceHarness.file(f.text)), dateOrder: nil)
        #expect(throws: StageFailure.self) { try SourceRunner.run(source, policy: .fail) }
    }

    /// A file of historic readings (Device Timestamp text, value) read without date_order, which must
    /// fail: the file's path and the error.
    static func readWithoutDateOrder(_ rows: [(String, String)]) throws -> (path: String, error: InputError) {
        var f = F()
        for (time, value) in rows { f.row(time, 0, [F.historic: value]) }
        let path = try SourceHarness.file(f.text)
        let error = try #require(throws: InputError.self) {
            try SourceRunner.run(LibreViewSource(options: SourceHarness.options(path), dateOrder: nil))
        }
        return (path, error)
    }

    @Test func contradictoryDatesAreAnErrorNamingBothLines() throws {
        let (path, error) = try Self.readWithoutDateOrder([("13-01-2024 08:00", "100"), ("01-14-2024 08:00", "100")])
        #expect(error.reason.contains("line 3 '13-01-2024 08:00'") && error.reason.contains("line 4 '01-14-2024 08:00'"))
        #expect(error.reason.contains("date_order"))
        // With the order configured, the row that does not fit is rejected and the rest land.
        let r = try SourceRunner.run(LibreViewSource(options: SourceHarness.options(path, zone: "UTC"), dateOrder: .dmy))
        #expect(r.measurements.count == 1 && r.input.rejected == 1 && r.quarantined.first?["line"] as? Int == 4)
    }

    @Test func undecidableDatesNeedTheOption() throws {
        let (path, error) = try Self.readWithoutDateOrder([("01-02-2024 08:00", "100"), ("03-04-2024 08:00", "110")])
        #expect(error.reason.contains("date_order: dmy") && error.reason.contains("2 rows"))
        let mdy = try SourceRunner.run(LibreViewSource(options: SourceHarness.options(path, zone: "UTC"), dateOrder: .mdy))
        #expect(mdy.measurements[0].start == SourceHarness.utc(2024, 1, 2, 8, 0))
        let dmy = try SourceRunner.run(LibreViewSource(options: SourceHarness.options(path, zone: "UTC"), dateOrder: .dmy))
        #expect(dmy.measurements[0].start == SourceHarness.utc(2024, 2, 1, 8, 0))
    }

    @Test func missingZoneRefusesTheFile() throws {
        let error = try #require(throws: InputError.self) {
            try SourceRunner.run(LibreViewSource(options: SourceHarness.options(sample, zone: nil), dateOrder: nil))
        }
        #expect(error.reason.contains("--timezone") && error.line == 3)
    }

    @Test func notALibreViewFile() throws {
        let path = SourceHarness.sample("medtronic-carelink/cgm_format_medtronics_test_livia_TRIMMED.csv")
        let error = try #require(throws: InputError.self) {
            try SourceRunner.run(LibreViewSource(options: SourceHarness.options(path), dateOrder: .dmy))
        }
        #expect(error.reason.contains("not a LibreView export"))
    }

    /// A pipe can be read once, but the day/month order is inferred over the whole file first: the
    /// source copies the stream to a temporary file and reads it twice, with no date_order needed.
    @Test func aPipeIsReadWholeWithoutTheDateOrder() throws {
        let sample = SourceHarness.sample("libreview/cgm_format_FreeStyle_Libre_3_synthetic.csv")
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("hp-libre-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sample))
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            bytes.withUnsafeBytes { _ = write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
        writer.start()
        let piped = try SourceRunner.run(LibreViewSource(options: SourceHarness.options(fifo), dateOrder: nil))
        let file = try SourceRunner.run(LibreViewSource(options: SourceHarness.options(sample), dateOrder: nil))
        #expect(piped.measurements.count == file.measurements.count && piped.measurements.count > 1000)
        #expect(piped.events.count == file.events.count)
        #expect(piped.input.hash == file.input.hash)
    }
}
