import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import CSVFormats

/// Every t:connect row accounted for (docs/reliability.md): each data row counted under its type (a
/// reading's EGV/BG, or its section: IOB, Basal, Bolus) as stored or quarantined. A row of a section
/// HealthPipe does not read was dropped with a one-line warning and exit 0; it is now quarantined
/// whole, counted under its first cell as an unknown type, warned about, exit status 3.
@Suite struct TandemRowAccountingTests {
    private let file = "real/tandem/tandem-en-therapy-timeline.csv"

    /// Data rows counted independently: the non-blank lines after the preamble (which ends at the first
    /// blank line) that are not a section's header.
    private func dataRows(_ path: String) throws -> Int64 {
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        let body = lines.drop { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        return Int64(body.filter { l in
            !l.trimmingCharacters(in: .whitespaces).isEmpty && !l.hasPrefix("Type,") && !l.hasPrefix("DeviceType,")
        }.count)
    }

    private func type(_ out: SourceOutput, _ name: String) -> RowTypeCount? {
        out.input.rowTypes.first { $0.type == name }
    }

    @Test func theRowsAddUpPerType() throws {
        let path = try MappedSupport.repositoryFile(file)
        let out = try MappedSupport.run(tandemComponent, path: path, timezone: "America/Los_Angeles")
        let rows = try dataRows(path)
        #expect(rows == 104)
        #expect(out.input.accounted)
        #expect(out.input.stored + out.input.rejected + out.input.skipped == rows)
        #expect(out.input.rowTypes.reduce(0) { $0 + $1.rows } == rows)
        #expect(type(out, "IOB") == RowTypeCount(type: "IOB", stored: 24))
        #expect(type(out, "Bolus")?.rows == 8)
        #expect(out.input.rowTypes.allSatisfy { $0.known })
    }

    @Test func aSectionNobodyReadsIsQuarantinedCountedAndWarned() throws {
        let text = try String(contentsOfFile: try MappedSupport.repositoryFile(file), encoding: .utf8)
            + "\nType,EventID,EventDateTime,AlarmText\n\"Alarm\",\"5\",\"2022-03-07T20:00:00\",\"Low insulin\"\n"
        let path = try MappedSupport.temporaryFile("alarm.csv", text)
        let out = try MappedSupport.run(tandemComponent, path: path, timezone: "America/Los_Angeles")
        #expect(type(out, "Alarm") == RowTypeCount(type: "Alarm", quarantined: 1, known: false))
        #expect((out.quarantined.first?["raw"] as? String)?.contains("Low insulin") == true)
        let rows = try dataRows(path)
        #expect(out.input.stored + out.input.rejected + out.input.skipped == rows)
        #expect(out.context.warnings.contains { $0.contains("1 row of type 'Alarm'") })
        var report = RunReport()
        report.inputs = out.context.inputs
        #expect(report.unknownTypeRows == 1 && report.exitCode == 3)
    }
}
