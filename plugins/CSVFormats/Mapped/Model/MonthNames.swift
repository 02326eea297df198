/// Month names in dates (`%b`: "Aug 7, 2017", "7. Mär 2021", "12 déc. 2020"): the name is
/// replaced by its number in a reused buffer, and the pattern reads `%m` there. The table holds the
/// abbreviations and names of the languages the consumer apps export in; a prefix match, longest
/// first, so "juin"/"juil" and "mär"/"mar" are told apart. Bytes, no Foundation formatter.
enum MonthNames {
    /// (lower-cased prefix, month); longer prefixes first.
    static let prefixes: [([UInt8], Int)] = {
        let table: [(String, Int)] = [
            // 4-letter prefixes that 3 letters cannot tell apart (fr juin/juillet)
            ("juin", 6), ("juil", 7),
            // en, de, da, nl, sv, no, fr, es, it, pt
            ("jan", 1), ("ene", 1), ("gen", 1), ("janv", 1),
            ("feb", 2), ("fév", 2), ("fev", 2), ("fév", 2),
            ("mar", 3), ("mär", 3), ("mrz", 3), ("mrt", 3),
            ("apr", 4), ("avr", 4), ("abr", 4),
            ("may", 5), ("mai", 5), ("maj", 5), ("mei", 5), ("mag", 5),
            ("jun", 6), ("giu", 6),
            ("jul", 7), ("lug", 7),
            ("aug", 8), ("aoû", 8), ("aou", 8), ("ago", 8),
            ("sep", 9), ("set", 9),
            ("oct", 10), ("okt", 10), ("ott", 10), ("out", 10),
            ("nov", 11),
            ("dec", 12), ("dez", 12), ("déc", 12), ("dic", 12), ("des", 12),
        ]
        return table.map { (Array($0.0.utf8), $0.1) }.sorted { $0.0.count > $1.0.count }
    }()

    /// A letter of a month name: ASCII letters and any UTF-8 byte of a non-ASCII letter.
    @inline(__always)
    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A || b >= 0x80 }

    /// Copies `raw` into `out` with the first letter run of at least 3 bytes that names a month
    /// replaced by the month's number; false when no such run is found.
    static func rewrite(_ raw: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        var i = 0, done = false
        let n = raw.count
        while i < n {
            let b = raw[i]
            guard !done, isLetter(b) else { out.append(b); i += 1; continue }
            var j = i
            while j < n, isLetter(raw[j]) { j += 1 }
            if j - i >= 3, let m = month(raw, i, j) {
                if m >= 10 { out.append(0x31) }
                out.append(UInt8(0x30 + m % 10))
                done = true
                i = j
                // An abbreviation's full stop ("Aug.", "déc.") belongs to the name.
                if i < n, raw[i] == UInt8(ascii: ".") { i += 1 }
            } else {
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[i..<j]))
                i = j
            }
        }
        return done
    }

    private static func month(_ raw: UnsafeRawBufferPointer, _ lo: Int, _ hi: Int) -> Int? {
        for (p, m) in prefixes where p.count <= hi - lo {
            var ok = true
            for k in 0..<p.count {
                let b = raw[lo + k]
                if (b < 0x80 ? b | 0x20 : b) != p[k] { ok = false; break }
            }
            if ok { return m }
        }
        return nil
    }
}
