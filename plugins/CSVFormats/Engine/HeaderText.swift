/// Header cell normalisation shared by the CSV formats.
enum HeaderText {
    /// Lower-cased, trimmed, with a BOM, the mojibake of a double-encoded BOM (`ï»¿`) and stray
    /// quotes removed: `"ï»¿""Index""` → `index`.
    static func normalize(_ cell: String) -> String {
        var s = cell
        // Foundation's replacing and trimming cost ~20,000 instructions a call, and detection
        // normalizes every cell of a file's first lines: they run only when their bytes are there
        // (a BOM starts with 0xEF, its mojibake's `»¿` with 0xC2 however `ï` is spelled; whitespace
        // other than ASCII's is not ASCII).
        if s.utf8.contains(where: { $0 == 0x22 || $0 == 0xEF || $0 == 0xC2 }) {
            for junk in ["\u{FEFF}", "ï»¿", "\""] { s = s.replacingOccurrences(of: junk, with: "") }
        }
        if let first = s.utf8.first, let last = s.utf8.last, Self.plainEdge(first), Self.plainEdge(last) { return s.lowercased() }
        return s.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// An ASCII byte that is not whitespace `trimmingCharacters(in: .whitespaces)` would remove.
    private static func plainEdge(_ b: UInt8) -> Bool { b < 0x80 && b != 0x20 && b != 0x09 }

    /// The delimiter a header line uses, judged by counting candidates outside quotes.
    static func sniffDelimiter(_ line: Substring) -> UInt8 {
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, UInt8(ascii: "\t"): 0]
        var quoted = false
        for b in line.utf8 {
            if b == UInt8(ascii: "\"") { quoted.toggle() } else if !quoted, counts[b] != nil { counts[b]! += 1 }
        }
        let best = counts.max { a, b in a.value < b.value || (a.value == b.value && a.key != UInt8(ascii: ",")) }!
        return best.value == 0 ? UInt8(ascii: ",") : best.key
    }
}

import Foundation
