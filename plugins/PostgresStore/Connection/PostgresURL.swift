import Foundation

/// Where the PostgreSQL store is: a URL (`postgresql://user@host:5432/db?sslmode=require`), a libpq
/// key-value string (`host=db dbname=cohort`), or nothing — then libpq takes the standard PG*
/// variables (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGSERVICE…) and ~/.pgpass.
/// A password is accepted in any of them but never shown: `shown` is what messages, the run report
/// and printed pipelines say, and `redact` strips every known password from a text (libpq's own
/// messages included).
public struct PostgresURL: Sendable, CustomStringConvertible {
    public let conninfo: String
    /// The passwords to keep out of every text: the URL's, and PGPASSWORD's.
    private let secrets: [String]

    public init(_ conninfo: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.conninfo = conninfo ?? ""
        var secrets = Self.passwords(in: self.conninfo)
        if let p = environment["PGPASSWORD"], !p.isEmpty { secrets.append(p) }
        // Longest first, so a password that contains another is replaced whole.
        self.secrets = Array(Set(secrets.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    public static func isURL(_ text: String) -> Bool { text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") }

    /// The connection as it may be shown: the password replaced by `***`; `PG* variables` when empty.
    public var shown: String { conninfo.isEmpty ? "PostgreSQL (PG* variables)" : redact(conninfo) }
    public var description: String { shown }

    public func redact(_ text: String) -> String {
        var out = text
        for s in secrets where out.contains(s) { out = out.replacingOccurrences(of: s, with: "***") }
        return out
    }

    /// Passwords written in a URL's user info or `password=` parameter, or a key-value `password=`.
    static func passwords(in conninfo: String) -> [String] {
        var found: [String] = []
        if isURL(conninfo), let schemeEnd = conninfo.range(of: "://") {
            let rest = conninfo[schemeEnd.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                let raw = String(authority[authority.index(after: colon)..<at])
                found.append(raw)
                if let decoded = raw.removingPercentEncoding { found.append(decoded) }
            }
            if let q = conninfo.firstIndex(of: "?") {
                for pair in conninfo[conninfo.index(after: q)...].split(separator: "&") where pair.hasPrefix("password=") {
                    let raw = String(pair.dropFirst("password=".count))
                    found.append(raw)
                    if let decoded = raw.removingPercentEncoding { found.append(decoded) }
                }
            }
            return found
        }
        // key=value pairs; a value may be single-quoted with backslash escapes.
        var i = conninfo.startIndex
        while let r = conninfo.range(of: "password", range: i..<conninfo.endIndex) {
            i = r.upperBound
            var j = i
            while j < conninfo.endIndex, conninfo[j] == " " { j = conninfo.index(after: j) }
            guard j < conninfo.endIndex, conninfo[j] == "=" else { continue }
            j = conninfo.index(after: j)
            while j < conninfo.endIndex, conninfo[j] == " " { j = conninfo.index(after: j) }
            var value = ""
            let raw = j
            if j < conninfo.endIndex, conninfo[j] == "'" {
                j = conninfo.index(after: j)
                while j < conninfo.endIndex, conninfo[j] != "'" {
                    if conninfo[j] == "\\" { j = conninfo.index(after: j); if j == conninfo.endIndex { break } }
                    value.append(conninfo[j])
                    j = conninfo.index(after: j)
                }
            } else {
                while j < conninfo.endIndex, conninfo[j] != " " { value.append(conninfo[j]); j = conninfo.index(after: j) }
            }
            found.append(value)
            // A quoted value with escapes appears escaped in the text itself.
            if conninfo[raw..<j].contains("\\") { found.append(String(conninfo[raw..<j]).trimmingCharacters(in: CharacterSet(charactersIn: "'"))) }
            i = j
        }
        return found
    }
}
