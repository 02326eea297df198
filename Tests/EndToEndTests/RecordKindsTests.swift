import Foundation
import Testing

/// Every record kind a stage can receive is visible to the graph check: subject profiles reach an
/// NDJSON file, and a sink that does not write a kind its input emits is named before the run.
@Suite struct RecordKindsTests {
    static let zip = E2E.samples.appendingPathComponent("apple-health/side-files_export.zip")

    /// A pipeline config `yml` that writes the Apple Health sample export to `out` as NDJSON (only
    /// the `include` kinds when given).
    static func writeExportToNDJSON(_ out: URL, config yml: URL, include: String? = nil) throws {
        try E2E.write("""
        sources:
          phone: { type: apple-health, path: '\(zip.path)' }
        sinks:
          out: { type: ndjson, inputs: [phone], path: '\(out.path)'\(include.map { ", include: [\($0)]" } ?? "") }
        """, to: yml)
    }

    @Test func profilesReachNDJSONAndUnwrittenKindsAreNamed() throws {
        let dir = E2E.tempDir()
        let out = dir.appendingPathComponent("all.ndjson")
        let yml = dir.appendingPathComponent("p.yml")
        try Self.writeExportToNDJSON(out, config: yml)
        let r = try E2E.run(["run", yml.path, "--timezone", "UTC"])
        #expect(r.code == 0, "\(r.stderr)")
        let lines = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
        let profiles = lines.filter { $0.contains("\"type\":\"profile\"") }
        #expect(profiles.count == 1)
        #expect(profiles.first?.contains("\"date_of_birth\":") == true && profiles.first?.contains("\"attributes\":{") == true)
        // The export's workout routes and ECGs have no NDJSON form: said, not dropped in silence.
        #expect(r.stderr.contains("note: 'out' (ndjson) does not write the workout routes, electrocardiograms that 'phone' emits"))

        // Asked for measurements only: profiles are left out on purpose, and the note says so too.
        try Self.writeExportToNDJSON(out, config: yml, include: "measurements")
        let m = try E2E.run(["run", yml.path, "--timezone", "UTC"])
        #expect(m.code == 0, "\(m.stderr)")
        #expect(try String(contentsOf: out, encoding: .utf8).contains("\"type\":\"profile\"") == false)
    }

    /// A profile written as NDJSON reads back (ndjson-source) into the same stored row a direct import makes.
    @Test func profilesRoundTripThroughNDJSON() throws {
        let dir = E2E.tempDir()
        let out = dir.appendingPathComponent("all.ndjson"), direct = dir.appendingPathComponent("d.sqlite")
        let back = dir.appendingPathComponent("b.sqlite"), yml = dir.appendingPathComponent("p.yml")
        try Self.writeExportToNDJSON(out, config: yml, include: "profiles")
        #expect(try E2E.run(["run", yml.path, "--timezone", "UTC"]).code == 0)
        try E2E.write("""
        sources:
          records: { type: ndjson-source, path: '\(out.path)' }
        sinks:
          db: { type: sqlite, inputs: [records], path: '\(back.path)' }
        """, to: yml)
        let r = try E2E.run(["run", yml.path, "--timezone", "UTC"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(try E2E.run(["import", Self.zip.path, "--db", direct.path, "--timezone", "UTC"]).code == 0)
        let columns = "SELECT subject || '|' || source || '|' || coalesce(date_of_birth, '-') || '|' || coalesce(biological_sex, '-') || '|' "
            + "|| coalesce(blood_type, '-') || '|' || coalesce(skin_type, '-') || '|' || attributes FROM subject_profiles"
        let stored = E2E.scalar(back, columns), expected = E2E.scalar(direct, columns)
        #expect(!stored.isEmpty && stored == expected, "read back: '\(stored)', imported: '\(expected)'")
    }

    @Test func aDatabaseStoresTheProfileWithoutANote() throws {
        let dir = E2E.tempDir()
        let db = dir.appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", Self.zip.path, "--db", db.path, "--timezone", "UTC"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("note:"))
        #expect(E2E.count(db, "subject_profiles") == 1)
    }
}
