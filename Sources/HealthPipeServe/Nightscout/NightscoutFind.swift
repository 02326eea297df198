import Foundation
import HealthPipeCore
import Hummingbird
import JSONFormats

/// Nightscout's query language as clients send it (`lib/server/query.js`): `count`, and
/// `find[FIELD]=v` / `find[FIELD][$gte|$gt|$lte|$lt|$eq|$ne]=v`. The collection's time fields
/// (`date`, `dateString`, `sysTime`, `created_at`, `timestamp`, `mills`: epoch ms or ISO 8601) bound
/// the stored rows read; every other condition is checked on the documents shaped for the answer.
/// Without a time condition Nightscout reads the last 4 days (its `deltaAgo`), and so does this.
struct NightscoutFind {
    struct Condition {
        var field: String
        var op: String
        var value: String
        /// A value written `/…/`, compiled once for the query (not once per document compared).
        var pattern: NSRegularExpression?

        init(field: String, op: String, value: String) {
            self.field = field
            self.op = op
            self.value = value
            pattern = value.count >= 2 && value.hasPrefix("/") && value.hasSuffix("/")
                ? try? NSRegularExpression(pattern: String(value.dropFirst().dropLast())) : nil
        }
    }

    /// Stored rows with `fromUTC <= start < toUTC` (UTC seconds).
    var fromUTC: Int64
    var toUTC: Int64
    var count: Int
    var conditions: [Condition] = []

    static let timeFields: Set<String> = ["date", "dateString", "sysTime", "created_at", "timestamp", "mills", "startDate"]
    /// Nightscout's `deltaAgo` when a query names no time.
    static let defaultWindowSeconds: Int64 = 4 * 86_400
    /// No answer lists more documents than this, whatever `count` asks (Nightscout has no cap; a
    /// year of 5-minute readings is 105,120).
    static let maxCount = 200_000

    /// `id`: the document a path names (`DELETE /treatments/:id`), as `find[_id]=id` would.
    /// `recentOnly` false: no 4-day window without a time (Nightscout's, when the query names `dateString`).
    init(_ request: Request, defaultCount: Int, now: Int64 = Int64(Date().timeIntervalSince1970), id: String? = nil,
         recentOnly: Bool = true) throws {
        var from: Int64?, to: Int64?
        var count = defaultCount
        var conditions: [Condition] = id.map { [Condition(field: "_id", op: "$eq", value: $0)] } ?? []
        for (rawKey, rawValue) in request.uri.queryParameters {
            let key = String(rawKey).removingPercentEncoding ?? String(rawKey)
            // Some clients do not escape '+' in an offset (Nightscout reads a space back as '+').
            let value = (String(rawValue).removingPercentEncoding ?? String(rawValue)).replacingOccurrences(of: " ", with: "+")
            if key == "count" {
                guard let n = Int(value), n >= 0 else { throw HTTPError(.badRequest, message: "count=\(value): a whole number") }
                count = n == 0 ? Self.maxCount : min(n, Self.maxCount)  // MongoDB's limit(0): no limit
                continue
            }
            guard let (field, op) = Self.findKey(key) else { continue }
            guard Self.timeFields.contains(field) else {
                conditions.append(Condition(field: field, op: op, value: value))
                continue
            }
            if let day = Self.dateOnly(value), !Self.readAsInstant.contains(field) {
                // A date without a time, against a text field (`dateString`, `sysTime` …): Nightscout
                // compares the stored text, and every time of day D sorts after "D" — so `$gte`/`$gt`
                // take day D on, `$lte`/`$lt` the days before it, `$eq` nothing.
                switch op {
                case "$gte", "$gt": from = max(from ?? .min, day)
                case "$lte", "$lt": to = min(to ?? .max, day)
                case "$eq": (from, to) = (1, 0)
                default: throw HTTPError(.badRequest, message: "find[\(field)][\(op)]: dates take $gte, $gt, $lte, $lt or $eq")
                }
                continue
            }
            guard let ms = Self.dateOnly(value).map({ $0 * 1000 }) ?? NightscoutInstant.milliseconds(value) else {
                throw HTTPError(.badRequest, message: "find[\(field)]: cannot read '\(value)' as a date (epoch milliseconds or ISO 8601)")
            }
            // Stored instants are whole seconds: second s stands for [s·1000, s·1000 + 999] ms.
            switch op {
            case "$gte": from = max(from ?? .min, Self.floorDiv(ms, 1000))
            case "$gt": from = max(from ?? .min, Self.floorDiv(ms + 1, 1000))
            case "$lte": to = min(to ?? .max, Self.floorDiv(ms, 1000) + 1)
            case "$lt": to = min(to ?? .max, Self.floorDiv(ms - 1, 1000) + 1)
            case "$eq": (from, to) = (Self.floorDiv(ms, 1000), Self.floorDiv(ms, 1000) + 1)
            default: throw HTTPError(.badRequest, message: "find[\(field)][\(op)]: dates take $gte, $gt, $lte, $lt or $eq")
            }
        }
        // A query for one `_id` reads that document wherever it is, as Nightscout's (which adds no date
        // bound then); ours name their second (`NightscoutID`), so that second is all there is to read.
        if from == nil, to == nil, let id = conditions.first(where: { $0.field == "_id" && $0.op == "$eq" })?.value {
            guard let second = NightscoutV3ID.second(of: id) else {
                (fromUTC, toUTC, self.count, self.conditions) = (0, 0, count, conditions)
                return
            }
            (from, to) = (second, second + 1)
        }
        fromUTC = from ?? (to == nil && recentOnly ? now - Self.defaultWindowSeconds : .min)
        toUTC = to ?? .max
        self.count = count
        self.conditions = conditions
    }

    /// A query of every document in `fromUTC <= start < toUTC` (API v3's reads of one identifier's second).
    init(fromUTC: Int64, toUTC: Int64, count: Int = Self.maxCount) {
        (self.fromUTC, self.toUTC, self.count) = (fromUTC, toUTC, count)
    }

    /// Time fields Nightscout compares as instants when a query gives a date without a time:
    /// `created_at`, the `dateField` of treatments and device statuses, which its query builder
    /// rewrites to the ISO instant of UTC midnight (`moment.parseZone(d).toISOString()`), and the
    /// epoch numbers. The others are compared as the text they are stored as.
    static let readAsInstant: Set<String> = ["created_at", "date", "mills"]

    /// The UTC second of midnight of a date without a time (`2024-03-01`, or a month `2024-03` as
    /// its first day, as moment reads them); nil for anything else.
    static func dateOnly(_ text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month) else { return nil }
        let day = parts.count == 3 ? Int(parts[2]) ?? 0 : 1
        guard day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else { return nil }
        return CivilDate.days(year: year, month: month, day: day) * 86_400
    }

    /// `find[sgv][$gte]` → ("sgv", "$gte"); `find[type]` → ("type", "$eq").
    private static func findKey(_ key: String) -> (String, String)? {
        guard key.hasPrefix("find["), key.hasSuffix("]") else { return nil }
        let parts = key.dropFirst(5).dropLast().components(separatedBy: "][")
        switch parts.count {
        case 1: return (parts[0], "$eq")
        case 2: return (parts[0], parts[1])
        default: return nil
        }
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// Whether a document's `fields` meet every condition. Numbers compare as numbers; a value written
    /// `/…/` is a regular expression (Nightscout's `parseRegEx` for eventType, notes, enteredBy).
    func matches(_ field: (String) -> Any?) -> Bool {
        conditions.allSatisfy { c in
            let have = field(c.field)
            switch c.op {
            case "$eq": return Self.equal(have, c)
            case "$ne": return !Self.equal(have, c)
            case "$gte", "$gt", "$lte", "$lt":
                guard let a = Self.number(have), let b = Double(c.value) else { return false }
                switch c.op {
                case "$gte": return a >= b
                case "$gt": return a > b
                case "$lte": return a <= b
                default: return a < b
                }
            case "$exists": return (have != nil) == (c.value == "true" || c.value == "1")
            default: return false
            }
        }
    }

    private static func number(_ v: Any?) -> Double? {
        if let n = v as? NSNumber { return n.doubleValue }
        return (v as? String).flatMap(Double.init)
    }

    private static func equal(_ have: Any?, _ wanted: Condition) -> Bool {
        guard let have else { return false }
        if let n = number(have), let w = Double(wanted.value) { return n == w }
        let text = have as? String ?? "\(have)"
        if let regex = wanted.pattern {
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        return text == wanted.value
    }
}
