import Foundation
import HealthPipeCore

extension AdapterDraft {
    /// The adapter file: every choice written out, with a comment where the user must check it.
    static func render(name: String, path: String, table t: DraftTable, time: DraftTimestamp,
                       roles: [(Int, Role)]) -> (String, [String]) {
        var y: [String] = [], summary: [String] = []
        let file = path.split(separator: "/").last.map(String.init) ?? path
        y.append("# Drafted by `healthpipe adapters draft` from \(yamlComment(file)). Check every line, then import with")
        y.append("# `healthpipe import FILE --plugin-path <folder of this file>` (docs/adapters.md).")
        y.append("name: \(name)")
        y.append("description: \(quote("CSV like \(file) (drafted): " + roles.map { t.header[$0.0] }.joined(separator: ", ")))")
        var headerCells: [Int] = []
        switch time.layout {
        case .single(let c, _): headerCells.append(c)
        case .split(let d, _, let tc, _): headerCells += [d, tc]
        }
        var noteColumn: Int?
        for (c, role) in roles {
            if case .note = role { if noteColumn == nil { noteColumn = c; headerCells.append(c) } } else { headerCells.append(c) }
        }
        y.append("detect:")
        y.append("  header_contains: [\(headerCells.map { quote(t.normalized[$0]) }.joined(separator: ", "))]")
        y.append("  within_lines: \(max(20, t.headerLine + 5))")
        y.append("header: auto")
        y.append("separator: \(quote(t.delimiter == 9 ? "\\t" : String(UnicodeScalar(t.delimiter))))")
        if t.decimalComma { y.append("decimal_comma: true") }
        y.append("timestamp:")
        switch time.layout {
        case .single(let c, let f):
            y.append("  column: \(quote(t.header[c]))")
            y.append("  format: \(quote(f))")
            summary.append("time: \(t.header[c]) as \(f)")
        case .split(let d, let df, let tc, let tf):
            y.append("  date_column: \(quote(t.header[d]))")
            y.append("  date_format: \(quote(df))")
            y.append("  time_column: \(quote(t.header[tc]))")
            y.append("  time_format: \(quote(tf))")
            summary.append("time: \(t.header[d]) as \(df) + \(t.header[tc]) as \(tf)")
        }
        if time.ambiguousDayMonth {
            y.append("# CHECK: every day in the sample is 12 or less, so day/month order is a guess (swap %d and %m if wrong).")
            summary.append("check: day/month order could not be told from the sample")
        }
        if !time.hasOffset {
            y.append("# Times carry no offset: give --timezone at import, or set `timezone: Europe/Berlin` (your zone) here.")
        }
        y.append("source: \(quote(name))")
        if let n = noteColumn {
            y.append("note_column: \(quote(t.header[n]))")
            summary.append("note: \(t.header[n])")
        }
        y.append("columns:")
        for (c, role) in roles {
            switch role {
            case .glucose(let unit):
                y.append("  \(quote(t.header[c])): { metric: glucose, unit: \(unit) }")
                summary.append("glucose: \(t.header[c]) in \(unit)")
            case .carbs:
                y.append("  \(quote(t.header[c])): { event: meal, field: carbs, skip_zero: true }")
                summary.append("meal carbs (g): \(t.header[c])")
            case .insulin(let subtype):
                y.append("  \(quote(t.header[c])): { event: insulin, field: insulin, subtype: \(subtype), skip_zero: true }")
                summary.append("insulin (\(subtype), U): \(t.header[c])")
            case .note:
                continue
            }
        }
        return (y.joined(separator: "\n") + "\n", summary)
    }

    /// A YAML double-quoted scalar.
    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F { out += String(format: "\\x%02X", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    static func yamlComment(_ s: String) -> String {
        String(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }

    /// An adapter name from a file name: lower-case letters, digits, `.`, `_`, `-`, starting with a letter or digit.
    public static func name(fromFile path: String) -> String {
        let stem = (path.split(separator: "/").last.map(String.init) ?? path).split(separator: ".").first.map(String.init) ?? "adapter"
        var out = ""
        for c in stem.lowercased() {
            if c.isASCII, c.isLetter || c.isNumber || c == "_" || c == "-" { out.append(c) } else if !out.hasSuffix("-") { out.append("-") }
        }
        out = String(out.drop { $0 == "-" || $0 == "_" })
        return out.isEmpty ? "my-adapter" : String(out.prefix(60))
    }
}
