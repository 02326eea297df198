import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import CSVFormats

/// Every Clarity row accounted for (docs/reliability.md): each data row is stored, quarantined, or
/// skipped as a metadata row (FirstName, Device, untimed Alert settings…), counted per Event Type; a
/// type no language of the vocabulary names is still read by its cells, but counted, warned about and
/// sets exit status 3. Before, the metadata rows vanished uncounted and a new type passed in silence.
@Suite struct ClarityRowAccountingTests {
    private func real(_ name: String) throws -> String { try MappedSupport.repositoryFile("real/clarity/\(name)") }

    /// Data rows of a Clarity CSV counted independently: the non-blank lines after the header.
    private func dataRows(_ path: String) throws -> Int64 {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).filter { !$0.allSatisfy { $0 == "," || $0 == "\"" || $0.isWhitespace } }
        return Int64(lines.count - 1)
    }

    private func type(_ out: SourceOutput, _ name: String) -> RowTypeCount? {
        out.input.rowTypes.first { $0.type == name }
    }

    @Test func theG7ExportsRowsAddUpPerType() throws {
        let path = try real("clarity-en-g7-mgdl.csv")
        let out = try MappedSupport.run(dexcomClarityComponent, path: path, timezone: "Europe/Kyiv")
        #expect(out.input.accounted)
        let rows = try dataRows(path)
        #expect(out.input.stored + out.input.rejected + out.input.skipped == rows)
        #expect(out.input.stored == 93 && out.input.skipped == 10 && out.input.rejected == 0)
        #expect(type(out, "EGV") == RowTypeCount(type: "EGV", stored: 92))
        #expect(type(out, "Insulin") == RowTypeCount(type: "Insulin", stored: 1))
        #expect(type(out, "Alert") == RowTypeCount(type: "Alert", skipped: 7))
        #expect(type(out, "FirstName") == RowTypeCount(type: "FirstName", skipped: 1))
        #expect(type(out, "LastName") == RowTypeCount(type: "LastName", skipped: 1))
        #expect(type(out, "Device") == RowTypeCount(type: "Device", skipped: 1))
        #expect(out.input.rowTypes.reduce(0) { $0 + $1.rows } == out.input.stored + out.input.skipped)
        #expect(out.context.warnings.isEmpty)
    }

    @Test func theJapaneseExportsRowsAddUpPerType() throws {
        let path = try real("clarity-ja-g7-mgdl.csv")
        let out = try MappedSupport.run(dexcomClarityComponent, path: path, timezone: "Asia/Tokyo")
        let rows = try dataRows(path)
        #expect(out.input.stored + out.input.rejected + out.input.skipped == rows)
        #expect(out.input.rowTypes.allSatisfy { $0.known })
        #expect(type(out, "活動") == RowTypeCount(type: "活動", stored: 7))
        #expect(type(out, "名") == RowTypeCount(type: "名", skipped: 1))
        #expect(type(out, "空腹時グルコース") == RowTypeCount(type: "空腹時グルコース", stored: 2))
    }

    /// A workbook's sheets add up the same way (each sheet has its own mapper; their counts join).
    @Test func anXLSXExportsRowsAddUp() throws {
        let out = try MappedSupport.run(dexcomClarityXLSXComponent, path: try real("clarity-en-g7-excel-mac.xlsx"), timezone: "Europe/Kyiv")
        #expect(out.input.accounted && out.input.stored > 0)
        #expect(out.input.rowTypes.reduce(0) { $0 + $1.rows } == out.input.stored + out.input.rejected + out.input.skipped)
        #expect(out.input.rowTypes.allSatisfy { $0.known })
    }

    /// A type no language names: read by its cells (a note here), counted under its text as unknown,
    /// warned about, exit status 3; a row quarantined for a bad value counts under its type too.
    @Test func anUnknownEventTypeIsCountedAndWarned() throws {
        let text = try String(contentsOfFile: try real("clarity-en-g7-mgdl.csv"), encoding: .utf8)
            + "\"104\",\"2025-05-14T23:00:00\",\"Ketone\",\"\",\"\",\"\",\"iOS G7\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"\n"
            + "\"105\",\"2025-05-14T23:05:00\",\"EGV\",\"\",\"\",\"\",\"iOS G7\",\"abc\",\"\",\"\",\"\",\"\",\"1\",\"X\"\n"
        let path = try MappedSupport.temporaryFile("new-type.csv", text)
        let out = try MappedSupport.run(dexcomClarityComponent, path: path, timezone: "Europe/Kyiv")
        #expect(type(out, "Ketone") == RowTypeCount(type: "Ketone", stored: 1, known: false))
        #expect(type(out, "EGV") == RowTypeCount(type: "EGV", stored: 92, quarantined: 1))
        let rows = try dataRows(path)
        #expect(out.input.stored + out.input.rejected + out.input.skipped == rows)
        #expect(out.context.warnings.contains { $0.contains("1 row of type 'Ketone'") && $0.contains("1 stored by their cells") })
        var report = RunReport()
        report.inputs = out.context.inputs
        #expect(report.unknownTypeRows == 1 && report.exitCode == 3)
    }
}
