import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import CSVFormats

/// Every CareLink row accounted for (docs/reliability.md). CareLink has no type column, so its data
/// rows count without a type: stored, quarantined, or skipped when no mapped cell holds anything.
/// Before, the skipped rows (BWZ settings, empty sensor rows) were read and vanished uncounted.
@Suite struct CareLinkRowAccountingTests {
    /// Data rows counted independently: the lines that start with an Index number after the first header.
    private func dataRows(_ path: String) throws -> Int64 {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
        let body = lines.drop { !$0.hasPrefix("Index") }
        return Int64(body.filter { $0.first?.isNumber == true }.count)
    }

    @Test(arguments: [("carelink-en-780g-mmol.csv", "Australia/Sydney"), ("carelink-en-paradigm522-v101.csv", "America/Los_Angeles"),
                      ("carelink-en-guardian-connect-eu.csv", "Europe/Bucharest")])
    func theRowsAddUp(_ file: String, _ zone: String) throws {
        let path = try MappedSupport.repositoryFile("real/carelink/\(file)")
        let out = try MappedSupport.run(careLinkComponent, path: path, timezone: zone)
        let rows = try dataRows(path)
        #expect(out.input.accounted)
        #expect(out.input.stored > 0)
        #expect(out.input.stored + out.input.rejected + out.input.skipped == rows)
        #expect(out.input.rowTypes.allSatisfy { $0.known && $0.type == CareLinkRowMapper.rowType })
    }
}
