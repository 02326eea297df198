import Foundation
import Testing

/// A JSON writer may escape characters of a string (Java's org.json and Apple's JSONSerialization
/// write `loop:\/\/iPhone`, Python's json.dumps `J\u00f6rg`): the escaped file must land exactly as the plain
/// one — sources, devices, times, trends and types are read as text with escapes decoded
/// (`JSONDocument.withText`), never as raw bytes.
@Suite struct EscapedStringsTests {
    /// The file as Java's org.json, Apple's JSONSerialization and Python's json.dumps write it: every
    /// `/` in a string as `\/`, every character beyond ASCII as `\uXXXX` (surrogate pairs above U+FFFF).
    static func escapeStrings(_ text: String) -> String {
        var out = "", inString = false, escaped = false
        for scalar in text.unicodeScalars {
            if inString && !escaped {
                if scalar == "/" { out += "\\/"; continue }
                if scalar.value > 0x7F {
                    for unit in String(scalar).utf16 { out += String(format: "\\u%04x", unit) }
                    continue
                }
            }
            if escaped { escaped = false } else if inString && scalar == "\\" { escaped = true } else if scalar == "\"" { inString.toggle() }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    private func rows(_ file: URL, _ extra: [String]) throws -> (code: Int32, measurements: [[String]], events: [[String]]) {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let r = try E2E.run(["import", file.path, "--db", db.path, "--quarantine", dir.appendingPathComponent("q.ndjson").path] + extra)
        #expect(r.code != 1 && r.code != 2, "\(r.stderr)")
        let device = "(SELECT d.attributes FROM devices d WHERE d.id = device_id)"
        let m = E2E.query(db, "SELECT source, metric, start, end, utc_offset, value, unit, metadata, \(device) FROM measurements ORDER BY 1, 2, 3")
        let e = E2E.query(db, "SELECT source, kind, subtype, start, end, amount, utc_offset, carbs_g, insulin_u, note, metadata, \(device) "
                              + "FROM events ORDER BY 1, 2, 3, 4")
        return (r.code, m.map(Self.decoded), e.map(Self.decoded))
    }

    /// JSON cells (metadata, device attributes) as what they mean: `"a\/b"` is `"a/b"`.
    static func decoded(_ row: [String]) -> [String] {
        row.map { cell in
            guard cell.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(cell.utf8)),
                  let again = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return cell }
            return String(decoding: again, as: UTF8.self)
        }
    }

    @Test(arguments: ["real/nightscout/nightscout-loop-treatments.json",
                      "real/nightscout/nightscout-aaps-treatments.json", "real/nightscout/nightscout-600series-treatments-mongoexport.json",
                      "real/nightscout/nightscout-600series-devicestatus-mongoexport.json", "real/nightscout/nightscout-xdrip4ios-treatments.json"])
    func anEscapedNightscoutFileLandsAsThePlainOne(_ name: String) throws {
        try compare(E2E.fixtures.appendingPathComponent(name), ["--timezone", "Europe/Berlin"])
    }

    @Test func anEscapedTidepoolExportLandsAsThePlainOne() throws {
        try compare(E2E.samples.appendingPathComponent("tidepool/tidepool_export.json"), [])
    }

    private func compare(_ plain: URL, _ extra: [String]) throws {
        let text = try String(contentsOf: plain, encoding: .utf8)
        let escapedText = Self.escapeStrings(text)
        #expect(escapedText != text)
        let escaped = E2E.tempDir().appendingPathComponent(plain.lastPathComponent)
        try E2E.write(escapedText, to: escaped)
        let a = try rows(plain, extra), b = try rows(escaped, extra)
        #expect(!a.measurements.isEmpty || !a.events.isEmpty)
        #expect(a.code == b.code, "the escaped file ends as the plain one does")
        #expect(a.measurements == b.measurements)
        #expect(a.events == b.events)
    }
}
