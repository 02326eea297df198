import Foundation
import HealthPipeCore
import Hummingbird

/// Nightscout's pattern routes (`lib/api/entries`, `prep_patterns`): `/times/PREFIX/REGEX` over
/// entries' `dateString`, `/slice/STORAGE/FIELD/TYPE/PREFIX/REGEX` over any field of entries,
/// treatments or device statuses, and `/times/echo/…` showing the patterns. The path is expanded as
/// bash expands braces (`BraceExpansion`): a prefix that expands to one text must start the field
/// (`$regex: ^PREFIX`); the alternatives (`.*REGEX`, led by `^PREFIX` when the prefix expands to
/// several) — any of them — must match it (`$in`). The query's `find` and `count` (default 10)
/// apply as for the lists; a query on `dateString` has no 4-day window, as Nightscout's. Field texts
/// are the ones the reads answer (`dateString` in UTC).
struct NightscoutTimePatterns {
    let field: String
    /// What `/times/echo` answers as `pattern`.
    let patterns: [String]
    private let prefix: NSRegularExpression?
    private let anyOf: [NSRegularExpression]
    /// The single expanded prefix, when there is one.
    private let singlePrefix: String?

    init(prefix rawPrefix: String?, regex: String?, field: String) throws {
        self.field = field
        do {
            let prefixes = try BraceExpansion.expand(rawPrefix ?? ".*")
            var parts: [String] = []
            if prefixes.count > 1, let rawPrefix { parts.append("^" + rawPrefix) }
            if let regex { parts.append(".*" + regex) }
            var patterns = try BraceExpansion.expand(parts.joined())
            if parts.isEmpty || patterns.isEmpty { patterns = [""] }
            self.patterns = patterns
            // An empty pattern matches everything in JavaScript; NSRegularExpression refuses it.
            anyOf = try patterns.map { try NSRegularExpression(pattern: $0.isEmpty ? "(?:)" : $0) }
            singlePrefix = prefixes.count == 1 ? prefixes[0] : nil
            prefix = try singlePrefix.map { try NSRegularExpression(pattern: "^" + $0) }
        } catch is BraceExpansion.TooMany {
            throw HTTPError(.badRequest, message: "the path expands to more than \(BraceExpansion.maxResults) patterns")
        } catch {
            throw HTTPError(.badRequest, message: "not a regular expression: \(rawPrefix ?? "")/\(regex ?? "")")
        }
    }

    func matches(_ value: Any?) -> Bool {
        guard let value else { return false }
        let text = value as? String ?? "\(value)"
        let range = NSRange(text.startIndex..., in: text)
        if let prefix, prefix.firstMatch(in: text, range: range) == nil { return false }
        return anyOf.contains { $0.firstMatch(in: text, range: range) != nil }
    }

    /// The UTC seconds a date prefix of `dateString`/`sysTime` (`2024`, `2024-03`, `2024-03-01`) spans,
    /// so the read is bounded; nil when the prefix is no such date.
    var window: (from: Int64, to: Int64)? {
        guard field == "dateString" || field == "sysTime", let p = singlePrefix else { return nil }
        let parts = p.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(parts.count), parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }), let year = Int(parts[0]) else { return nil }
        let month = parts.count > 1 ? Int(parts[1]) ?? 0 : 1, day = parts.count > 2 ? Int(parts[2]) ?? 0 : 1
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else { return nil }
        let from = CivilDate.days(year: year, month: month, day: day) * 86_400
        let to: Int64
        switch parts.count {
        case 1: to = CivilDate.days(year: year + 1, month: 1, day: 1) * 86_400
        case 2: to = (month == 12 ? CivilDate.days(year: year + 1, month: 1, day: 1) : CivilDate.days(year: year, month: month + 1, day: 1)) * 86_400
        default: to = from + 86_400
        }
        return (from, to)
    }
}

/// The routes of `NightscoutTimePatterns`.
struct NightscoutTimesRoutes {
    let settings: ServeSettings
    var routes: NightscoutRoutes { NightscoutRoutes(settings: settings) }

    func add(to router: Router<ServeContext>) {
        let v1 = "/api/v1/"
        for path in ["times/echo", "times/echo/:prefix", "times/echo/:prefix/:regex"] {
            router.get(RouterPath(v1 + path)) { request, context in
                let (prefix, regex, _) = Self.parameters(context, ["prefix", "regex"])
                let patterns = try NightscoutTimePatterns(prefix: prefix, regex: regex, field: "dateString")
                var params: [String: Any] = [:]
                params["prefix"] = prefix
                params["regex"] = regex
                return JSONBody.response(["req": ["params": params, "query": Self.query(request)], "pattern": patterns.patterns] as [String: Any])
            }
        }
        for path in ["times", "times/:prefix", "times/:prefix/:regex"] {
            router.get(RouterPath(v1 + path)) { request, context in
                let (prefix, regex, format) = Self.parameters(context, ["prefix", "regex"])
                return try await self.answer(request, storage: "entries", field: "dateString", type: nil, prefix: prefix, regex: regex, format: format)
            }
        }
        for path in ["slice/:storage/:field", "slice/:storage/:field/:type", "slice/:storage/:field/:type/:prefix", "slice/:storage/:field/:type/:prefix/:regex"] {
            router.get(RouterPath(v1 + path)) { request, context in
                var (storage, field) = (Self.parameter(context, "storage") ?? "entries", Self.parameter(context, "field") ?? "dateString")
                let (type, prefix, regex, format) = Self.sliceParameters(context)
                // `/slice/entries/dateString.json`: the format may end any segment that ends the path.
                for suffix in NightscoutEntryText.allCases.map(\.suffix) where !suffix.isEmpty && field.hasSuffix(suffix) && type == nil {
                    field.removeLast(suffix.count)
                }
                if !["entries", "treatments", "devicestatus"].contains(storage) { storage = "entries" }
                return try await self.answer(request, storage: storage, field: field, type: type, prefix: prefix, regex: regex,
                                             format: format ?? Self.format(of: Self.parameter(context, "field") ?? ""))
            }
        }
    }

    private func answer(_ request: Request, storage: String, field: String, type: String?, prefix: String?, regex: String?,
                        format: NightscoutEntryText?) async throws -> Response {
        let patterns = try NightscoutTimePatterns(prefix: prefix, regex: regex, field: field)
        var find = try NightscoutFind(request, defaultCount: 10, recentOnly: field != "dateString")
        if let window = patterns.window { (find.fromUTC, find.toUTC) = (max(find.fromUTC, window.from), min(find.toUTC, window.to)) }
        let count = find.count
        find.count = NightscoutFind.maxCount
        func kept(_ doc: [String: Any]) -> Bool { patterns.matches(doc[field]) && (type == nil || doc["type"] as? String == type) }
        switch storage {
        case "treatments": return JSONBody.response(Array(try await routes.treatmentDocuments(find).filter(kept).prefix(count)))
        case "devicestatus": return JSONBody.response(Array(try await routes.deviceStatusDocuments(find).filter(kept).prefix(count)))
        default:
            let entries = try await routes.entryDocuments(find, type: type).filter { patterns.matches($0.field(field)) }
            return (format ?? .json).response(Array(entries.prefix(count)))
        }
    }

    /// A path parameter as written before percent-encoding (`%7B13..18%7D` is `{13..18}`).
    private static func parameter(_ context: ServeContext, _ name: String) -> String? {
        context.parameters.get(name).map { $0.removingPercentEncoding ?? $0 }
    }

    /// The format a last path segment names (`….json`, `.csv`, `.tsv`, `.txt`), nil without one.
    static func format(of segment: String) -> NightscoutEntryText? {
        NightscoutEntryText.allCases.first { !$0.suffix.isEmpty && segment.hasSuffix($0.suffix) }
    }

    /// The named parameters, the last one given without its format suffix, and that format.
    private static func parameters(_ context: ServeContext, _ names: [String]) -> (String?, String?, NightscoutEntryText?) {
        var values = names.map { Self.parameter(context, $0) }
        var format: NightscoutEntryText?
        if let last = values.lastIndex(where: { $0 != nil }), let f = Self.format(of: values[last]!) {
            format = f
            values[last]!.removeLast(f.suffix.count)
        }
        return (values[0], values[1], format)
    }

    private static func sliceParameters(_ context: ServeContext) -> (String?, String?, String?, NightscoutEntryText?) {
        var values = ["type", "prefix", "regex"].map { Self.parameter(context, $0) }
        var format: NightscoutEntryText?
        if let last = values.lastIndex(where: { $0 != nil }), let f = Self.format(of: values[last]!) {
            format = f
            values[last]!.removeLast(f.suffix.count)
        }
        return (values[0], values[1], values[2], format)
    }

    /// The query string as Nightscout's parser nests it (`find[sgv][$gte]=120` → `{"find":{"sgv":{"$gte":"120"}}}`).
    static func query(_ request: Request) -> [String: Any] {
        var out: [String: Any] = [:]
        for (rawKey, rawValue) in request.uri.queryParameters {
            let key = String(rawKey).removingPercentEncoding ?? String(rawKey)
            let value = (String(rawValue).removingPercentEncoding ?? String(rawValue)).replacingOccurrences(of: " ", with: "+")
            var path: [String] = []
            if let open = key.firstIndex(of: "["), key.hasSuffix("]") {
                path = [String(key[..<open])] + key[key.index(after: open)..<key.index(before: key.endIndex)].components(separatedBy: "][")
            } else {
                path = [key]
            }
            out = set(out, path[...], value)
        }
        return out
    }

    private static func set(_ object: [String: Any], _ path: ArraySlice<String>, _ value: String) -> [String: Any] {
        var object = object
        guard let first = path.first else { return object }
        object[first] = path.count == 1 ? value : set(object[first] as? [String: Any] ?? [:], path.dropFirst(), value)
        return object
    }
}
