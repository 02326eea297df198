import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import CSVFormats

/// Every LibreView row accounted for (docs/reliability.md): each data row counted under its Record
/// Type (0–6) as stored, quarantined, or skipped (an entry with nothing in it); a type outside 0–6 is
/// quarantined, counted under its text as unknown, warned about, and sets exit status 3.
@Suite struct LibreViewRowAccountingTests {
    private let file = "real/libreview/libreview-en-eu-user-insulin-notes.csv"

    /// Data rows counted independently: the non-blank lines after the header (the file's second line).
    private func dataRows(_ path: String) throws -> Int64 {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
        return Int64(lines.dropFirst(2).filter { !$0.allSatisfy { $0 == "," || $0.isWhitespace } }.count)
    }

    private func type(_ out: SourceOutput, _ name: String) -> RowTypeCount? {
        out.input.rowTypes.first { $0.type == name }
    }

    @Test func theRowsAddUpPerRecordType() throws {
        let path = try MappedSupport.repositoryFile(file)
        let out = try MappedSupport.run(libreViewComponent, path: path, timezone: "Europe/Madrid")
        let rows = try dataRows(path)
        #expect(out.input.accounted)
        #expect(out.input.stored + out.input.rejected + out.input.skipped == rows)
        #expect(out.input.rowTypes.reduce(0) { $0 + $1.rows } == rows)
        #expect(type(out, "0") == RowTypeCount(type: "0", stored: 160))
        #expect(type(out, "4") == RowTypeCount(type: "4", stored: 6))
        #expect(type(out, "6")?.rows == 10)
        #expect(out.input.rowTypes.allSatisfy { $0.known })
        #expect(out.context.warnings.allSatisfy { !$0.contains("row of type") })
    }

    @Test func aRecordTypeOutsideZeroToSixIsCountedAndWarned() throws {
        let text = try String(contentsOfFile: try MappedSupport.repositoryFile(file), encoding: .utf8)
            + "FreeStyle LibreLink,0a1b2c3d-4e5f-4061-8273-9a0b1c2d3e4f,12-08-2019 08:25 PM,7,,,,,,,,,,new,,,,,\n"
        let path = try MappedSupport.temporaryFile("type-7.csv", text)
        let out = try MappedSupport.run(libreViewComponent, path: path, timezone: "Europe/Madrid")
        #expect(type(out, "7") == RowTypeCount(type: "7", quarantined: 1, known: false))
        let rows = try dataRows(path)
        #expect(out.input.stored + out.input.rejected + out.input.skipped == rows)
        #expect(out.context.warnings.contains { $0.contains("1 row of type '7'") })
        var report = RunReport()
        report.inputs = out.context.inputs
        #expect(report.unknownTypeRows == 1 && report.exitCode == 3)
    }
}
