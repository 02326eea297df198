import Foundation
import Hummingbird
import JSONFormats

/// API v3's search parameters (cgm-remote-monitor `lib/api3/generic/search/input.js`): `limit`
/// (1–1000, default 1000), `skip`, `sort=FIELD` (oldest first) or `sort$desc=FIELD` (newest first;
/// also without either), and filters `FIELD=v` or `FIELD$OP=v` (eq ne gt gte lt lte in nin re).
/// Every stored document's `date`, `created_at`, `srvModified` and `srvCreated` are one instant, so
/// filters on them bound the rows read; the others are checked on the documents.
struct NightscoutV3Query: Sendable {
    struct Filter: Sendable {
        var field: String
        var op: String
        var value: String
        /// `re`'s expression, compiled once for the query (not once per document compared).
        var pattern: NSRegularExpression?

        init(field: String, op: String, value: String) {
            self.field = field
            self.op = op
            self.value = value
            pattern = op == "re" ? try? NSRegularExpression(pattern: value) : nil
        }
    }

    /// Stored rows with `fromUTC <= start < toUTC` (UTC seconds).
    var fromUTC: Int64 = .min
    var toUTC: Int64 = .max
    var limit = Self.maxLimit
    var skip = 0
    var oldestFirst = false
    var filters: [Filter] = []

    static let maxLimit = 1000
    static let timeFields: Set<String> = ["date", "created_at", "srvModified", "srvCreated"]
    private static let operators: Set<String> = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "re"]
    private static let reserved: Set<String> = ["token", "limit", "skip", "sort", "sort$desc", "fields", "now"]

    init() {}

    init(_ request: Request) throws {
        let q = request.uri.queryParameters
        if q["sort"] != nil, q["sort$desc"] != nil { throw HTTPError(.badRequest, message: "Parameters sort and sort_desc cannot be combined") }
        oldestFirst = q["sort"] != nil
        limit = try Self.limit(q["limit"].map(String.init))
        if let s = q["skip"] {
            guard let n = Int(String(s)), n >= 0 else { throw HTTPError(.badRequest, message: "Parameter skip out of tolerance") }
            skip = n
        }
        for (rawKey, rawValue) in q {
            let key = String(rawKey).removingPercentEncoding ?? String(rawKey)
            guard !Self.reserved.contains(key) else { continue }
            let value = (String(rawValue).removingPercentEncoding ?? String(rawValue)).replacingOccurrences(of: " ", with: "+")
            var field = key, op = "eq"
            if let dollar = key.lastIndex(of: "$") {
                (field, op) = (String(key[..<dollar]), String(key[key.index(after: dollar)...]))
                guard Self.operators.contains(op) else { throw HTTPError(.badRequest, message: "Unsupported filter operator \(op)") }
            }
            if Self.timeFields.contains(field) { try bound(field, op, value) } else { filters.append(Filter(field: field, op: op, value: value)) }
        }
    }

    static func limit(_ text: String?) throws -> Int {
        guard let text else { return maxLimit }
        guard let n = Int(text), n > 0, n <= maxLimit else { throw HTTPError(.badRequest, message: "Parameter limit out of tolerance") }
        return n
    }

    /// A time condition as a bound on stored seconds. A stored document's `date` is its second × 1000
    /// exactly, so `date$gt` of the newest date read excludes it: AndroidAPS pages with it, and
    /// would ask for the same document forever otherwise.
    mutating func bound(_ field: String, _ op: String, _ value: String) throws {
        guard let ms = NightscoutInstant.milliseconds(value) else {
            throw HTTPError(.badRequest, message: "\(field): cannot read '\(value)' as a date (epoch milliseconds or ISO 8601)")
        }
        let floor = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000), ceil = floor * 1000 == ms ? floor : floor + 1
        switch op {
        case "gt": fromUTC = max(fromUTC, floor + 1)
        case "gte": fromUTC = max(fromUTC, ceil)
        case "lt": toUTC = min(toUTC, ceil)
        case "lte": toUTC = min(toUTC, floor + 1)
        case "eq": (fromUTC, toUTC) = ceil == floor ? (max(fromUTC, floor), min(toUTC, floor + 1)) : (1, 0)
        default: throw HTTPError(.badRequest, message: "\(field)$\(op): dates take gt, gte, lt, lte or eq")
        }
    }

    /// Whether a document meets every filter that is not a time (numbers compare as numbers;
    /// `in`/`nin` take `a|b|c`; `re` a regular expression).
    func matches(_ doc: [String: Any]) -> Bool {
        filters.allSatisfy { f in
            let have = f.field.split(separator: ".").reduce(doc as Any?) { ($0 as? [String: Any])?[String($1)] }
            switch f.op {
            case "eq": return Self.equal(have, f.value)
            case "ne": return !Self.equal(have, f.value)
            case "in": return f.value.split(separator: "|").contains { Self.equal(have, String($0)) }
            case "nin": return !f.value.split(separator: "|").contains { Self.equal(have, String($0)) }
            case "re":
                guard let text = have.map({ $0 as? String ?? "\($0)" }), let regex = f.pattern else { return false }
                return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            default:
                guard let a = (have as? NSNumber)?.doubleValue, let b = Double(f.value) else { return false }
                switch f.op {
                case "gt": return a > b
                case "gte": return a >= b
                case "lt": return a < b
                default: return a <= b
                }
            }
        }
    }

    private static func equal(_ have: Any?, _ wanted: String) -> Bool {
        guard let have else { return false }
        var wanted = wanted
        if wanted.count >= 2, wanted.hasPrefix("'"), wanted.hasSuffix("'") { wanted = String(wanted.dropFirst().dropLast()) }
        if wanted == "true" || wanted == "false" { return (have as? Bool).map(String.init) == wanted }
        if let n = (have as? NSNumber)?.doubleValue, let w = Double(wanted) { return n == w }
        return (have as? String ?? "\(have)") == wanted
    }
}
