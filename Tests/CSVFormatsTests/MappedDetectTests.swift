import Foundation
import HealthPipeCore
import Testing
@testable import CSVFormats

/// Content detection: each bundled adapter recognises its own files and no one else's.
@Suite struct MappedDetectTests {
    static let own: [(adapter: String, files: [String])] = [
        ("simglucose", ["reference/simglucose/all.csv", "reference/simglucose/irregular.csv"]),
        ("nightscout-entries-csv", ["samples/nightscout/cgm_format_nightscout_entries.csv"]),
        ("nightscout-exporter-cgm", ["samples/nightscout/cgm_format_nightscout-data-with-treatments.csv"]),
    ]
    static let foreign = [
        "samples/dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv",
        "samples/dexcom-clarity/cgmquantify_test_file.csv",
        "samples/libreview/cgm_format_FreeStyle_Libre_3_synthetic.csv",
        "samples/medtronic-carelink/cgm_format_medtronics_test_livia_TRIMMED.csv",
        "samples/nightscout/cgm_format_nightscout_entries.json",
    ]

    static func score(_ adapter: String, _ relative: String) throws -> Int {
        let c = try MappedSupport.bundled(adapter)
        let sniff = try FileSniff.read(path: try MappedSupport.repositoryFile(relative))
        return c.detect!(sniff)
    }

    @Test func eachAdapterDetectsItsOwnFiles() throws {
        for (adapter, files) in Self.own {
            for f in files { #expect(try Self.score(adapter, f) == 60, "\(adapter) on \(f)") }
        }
    }

    @Test func noAdapterDetectsClarityOrLibreView() throws {
        for (adapter, _) in Self.own {
            for f in Self.foreign { #expect(try Self.score(adapter, f) == 0, "\(adapter) on \(f)") }
        }
    }

    @Test func adaptersDoNotDetectEachOthersFiles() throws {
        for (adapter, _) in Self.own {
            for (other, files) in Self.own where other != adapter {
                for f in files { #expect(try Self.score(adapter, f) == 0, "\(adapter) on \(f)") }
            }
        }
    }

    @Test func detectionUsesContentNotNames() throws {
        let c = try MappedSupport.bundled("nightscout-entries-csv")
        let tsv = try FileSniff.read(path: MappedSupport.fixture("nightscout_entries_legacy.tsv"))
        #expect(c.detect!(tsv) == 60)
        // Four cells instead of five: not this format.
        let short = FileSniff(path: "entries.csv", prefix: Array("\"2026-04-05T20:30:29.000Z\",1775421029000,162,\"Flat\"\n".utf8))
        #expect(c.detect!(short) == 0)
        // A text where the epoch should be.
        let text = FileSniff(path: "entries.csv", prefix: Array("a,b,c,d,e\n".utf8))
        #expect(c.detect!(text) == 0)
    }

    @Test func headerMustLieWithinTheLineLimit() throws {
        let c = try MappedSupport.bundled("simglucose")
        let body = "timestamp,patient,cgm_mgdl,carbs_g,insulin_u\n2024-01-01T00:00:00,a,100,0,0\n"
        #expect(c.detect!(FileSniff(path: "x", prefix: Array(body.utf8))) == 60)
        #expect(c.detect!(FileSniff(path: "x", prefix: Array(("preamble\n" + body).utf8))) == 0)
        // A data row that does not parse defeats the header match.
        let bad = "timestamp,patient,cgm_mgdl,carbs_g,insulin_u\nyesterday,a,100,0,0\n"
        #expect(c.detect!(FileSniff(path: "x", prefix: Array(bad.utf8))) == 0)
    }
}
