import Foundation
import HealthPipeCore
import Testing
@testable import CSVFormats

/// `empty_values`: a word a file writes for "no value" (Oura's `None`) is an empty cell, not a bad number.
@Suite struct MappedEmptyWordsTests {
    static let yaml = """
        name: days
        description: test
        detect: { header_contains: [date, score] }
        timestamp: { column: date, format: "%Y-%m-%d" }
        timezone: UTC
        empty_values: [None]
        columns:
          score: { metric: x.score, unit: score }
          hrv: { metric: heart_rate_variability_rmssd, unit: ms }
        """

    @Test func aWordForNoValueSkipsItsCellAndNothingElse() throws {
        let path = try MappedSupport.temporaryFile("d.csv", "date,score,hrv\n2026-05-27,None,30\n2026-05-28,NONE,None\n2026-05-29,81,n/a\n")
        let out = try MappedSupport.run(try MappedSupport.adapter(Self.yaml), path: path)
        #expect(out.measurements.map(\.value) == [30])
        // Another word is still not a number: its row is quarantined whole.
        #expect(out.quarantineLines.count == 1 && out.quarantineLines[0].contains("'n/a' is not a number"))
        // Without the list, None is not a number either.
        let strict = try MappedSupport.adapter(Self.yaml.replacingOccurrences(of: "empty_values: [None]\n", with: ""))
        #expect(try MappedSupport.run(strict, path: path).quarantineLines.count == 3)
    }
}
