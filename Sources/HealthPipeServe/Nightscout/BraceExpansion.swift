/// Bash-style brace expansion as Nightscout's `/times` and `/slice` routes expand their path
/// (the `braces` package's `expand`): `{a,b}` lists, `{13..18}` and zero-padded `{00..15}` ranges
/// (with a step, `{0..30..10}`), letters `{a..c}`, nested and side by side. Text outside braces, and
/// braces that are neither a list nor a range, stay as written.
enum BraceExpansion {
    /// More alternatives than this is no query anyone means: the caller answers 400.
    static let maxResults = 10_000

    struct TooMany: Error {}

    static func expand(_ text: String) throws -> [String] {
        let chars = Array(text)
        guard let (open, close) = firstGroup(chars) else { return [text] }
        let head = String(chars[..<open]), tail = String(chars[(close + 1)...])
        let inner = String(chars[(open + 1)..<close])
        guard let alternatives = try alternatives(inner) else {
            // Not a list nor a range: kept literally, the rest still expanded.
            return try expand(String(chars[(close + 1)...])).map { head + "{" + inner + "}" + $0 }
        }
        let tails = try expand(tail)
        var out: [String] = []
        for a in alternatives {
            for t in tails {
                out.append(head + a + t)
                if out.count > maxResults { throw TooMany() }
            }
        }
        return out
    }

    /// The first top-level `{…}` (its brace indexes), nil without one.
    private static func firstGroup(_ chars: [Character]) -> (Int, Int)? {
        var depth = 0, start = -1
        for (i, c) in chars.enumerated() {
            if c == "{" {
                if depth == 0 { start = i }
                depth += 1
            } else if c == "}", depth > 0 {
                depth -= 1
                if depth == 0 { return (start, i) }
            }
        }
        return nil
    }

    /// A group's alternatives: its comma-separated parts (each expanded), or a range's members.
    private static func alternatives(_ inner: String) throws -> [String]? {
        var parts: [String] = [], depth = 0, current = ""
        for c in inner {
            if c == "{" { depth += 1 } else if c == "}" { depth -= 1 }
            if c == ",", depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        parts.append(current)
        if parts.count > 1 { return try parts.flatMap { try expand($0) } }
        return try range(inner)
    }

    private static func range(_ inner: String) throws -> [String]? {
        let bounds = inner.components(separatedBy: "..")
        guard bounds.count == 2 || bounds.count == 3 else { return nil }
        let step = bounds.count == 3 ? Int(bounds[2]).map(abs) ?? 0 : 1
        guard step > 0 else { return nil }
        if let a = Int(bounds[0]), let b = Int(bounds[1]) {
            guard abs(b - a) / step < maxResults else { throw TooMany() }
            // Zero-padded when either bound is written with a leading zero (`{00..15}`).
            let padded = [bounds[0], bounds[1]].contains { $0.count > 1 && ($0.hasPrefix("0") || $0.hasPrefix("-0")) }
            let width = padded ? max(bounds[0].count, bounds[1].count) : 0
            return stride(from: a, through: b, by: a <= b ? step : -step).map { n in
                let digits = String(abs(n))
                let pad = String(repeating: "0", count: max(0, width - digits.count - (n < 0 ? 1 : 0)))
                return (n < 0 ? "-" : "") + pad + digits
            }
        }
        if bounds[0].count == 1, bounds[1].count == 1, let a = bounds[0].unicodeScalars.first?.value, let b = bounds[1].unicodeScalars.first?.value,
           bounds[0].first!.isLetter, bounds[1].first!.isLetter {
            return stride(from: Int(a), through: Int(b), by: a <= b ? step : -step).compactMap { Unicode.Scalar(UInt32($0)).map { String(Character($0)) } }
        }
        return nil
    }
}
