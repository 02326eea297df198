/// Header cell normalisation shared by the CSV formats.
enum HeaderText {
    /// Lower-cased, trimmed, with a BOM, the mojibake of a double-encoded BOM (`ï»¿`) and stray
    /// quotes removed: `"ï»¿""Index""` → `index`.
    static func normalize(_ cell: String) -> String {
        var s = cell
        for junk in ["\u{FEFF}", "ï»¿", "\""] { s = s.replacingOccurrences(of: junk, with: "") }
        return s.trimmingCharacters(in: .whitespaces).lowercased()
    }

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
