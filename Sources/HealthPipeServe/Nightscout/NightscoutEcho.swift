import Foundation
import Hummingbird
import JSONFormats

/// `GET /api/v1/echo/STORAGE[/MODEL[/SPEC]]` (`lib/api/entries`' `echo_query`): the query Nightscout
/// builds from a request, for a client's author to see — `query` (the MongoDB find of
/// `lib/server/query.js` for `entries`, `treatments` or `devicestatus`: each storage's fields typed as
/// its walker types them, `parseInt` or a regular expression, which JSON writes as `{}`; the date field
/// rewritten to ISO or bounded to the last 4 days), `input` (the query string as parsed, with the
/// path's model as `find.type`, or the path's id as the whole query), `params`, `storage`.
struct NightscoutEcho {
    /// What `query_for` of each storage passes to the builder: its walker, its date field, whether dates are epoch ms.
    private struct Storage {
        var integers: Set<String>
        var expressions: Set<String> = []
        var dateField: String
        var epoch: Bool
    }

    private static let storages: [String: Storage] = [
        "entries": Storage(integers: ["date", "sgv", "filtered", "unfiltered", "rssi", "noise", "mbg"], dateField: "date", epoch: true),
        "treatments": Storage(integers: ["insulin", "carbs", "glucose"], expressions: ["notes", "eventType", "enteredBy"],
                              dateField: "created_at", epoch: false),
        "devicestatus": Storage(integers: ["date", "sgv"], dateField: "created_at", epoch: false),
    ]

    static func add(to router: Router<ServeContext>) {
        for path in ["echo/:echo", "echo/:echo/:model", "echo/:echo/:model/:spec"] {
            router.get(RouterPath("/api/v1/" + path)) { request, context in
                func parameter(_ name: String) -> String? { context.parameters.get(name).map { $0.removingPercentEncoding ?? $0 } }
                let storage = parameter("echo") ?? "entries"
                guard let rules = storages[storage] else {
                    throw HTTPError(.badRequest, message: "echo: no storage '\(storage)' (entries, treatments, devicestatus)")
                }
                let (model, spec) = (parameter("model"), parameter("spec"))
                var input = NightscoutTimesRoutes.query(request)
                var find = input["find"] as? [String: Any] ?? [:]
                if let model { find["type"] = model }
                if let spec {
                    if NightscoutFood.isObjectID(spec), spec.lowercased() == spec {
                        input = [:]
                        find = ["_id": spec]
                    } else {
                        find["type"] = model ?? "sgv"
                    }
                }
                if !find.isEmpty { input["find"] = find }
                var params: [String: Any] = ["echo": storage]
                params["model"] = model
                params["spec"] = spec
                let query = try Self.query(find, rules, now: Date())
                return JSONBody.response(["query": query, "input": input, "params": params, "storage": storage] as [String: Any])
            }
        }
    }

    /// `query.js`'s `create`: the walker's types, then the date rule (unless an `_id` is asked for).
    private static func query(_ find: [String: Any], _ rules: Storage, now: Date) throws -> [String: Any] {
        var query = find
        for (field, value) in find {
            if rules.integers.contains(field) { query[field] = map(value, parseInt) }
            if rules.expressions.contains(field) { query[field] = map(value, parseRegEx) }
        }
        guard query["_id"] == nil else { return query }
        if var bounds = query[rules.dateField] as? [String: Any] {
            for (op, value) in bounds {
                guard let text = value as? String, Double(text) == nil, !text.isEmpty else { continue }
                let fixed = text.replacingOccurrences(of: " ", with: "+")
                guard let ms = NightscoutFind.dateOnly(fixed).map({ $0 * 1000 }) ?? NightscoutInstant.milliseconds(fixed) else {
                    throw HTTPError(.badRequest, message: "Cannot parse \(fixed) as a valid ISO-8601 date")
                }
                bounds[op] = iso(ms)
            }
            query[rules.dateField] = bounds
        } else if query[rules.dateField] == nil, query["dateString"] == nil {
            let from = Int64(now.timeIntervalSince1970 * 1000) - NightscoutFind.defaultWindowSeconds * 1000
            query[rules.dateField] = ["$gte": rules.epoch ? from as Any : iso(from)]
        }
        return query
    }

    private static func map(_ value: Any, _ leaf: (String) -> Any) -> Any {
        if let text = value as? String { return leaf(text) }
        if let object = value as? [String: Any] { return object.mapValues { map($0, leaf) } }
        return value
    }

    /// JavaScript's `parseInt(text)`: the leading integer, `null` (NaN) without one.
    static func parseInt(_ text: String) -> Any {
        var digits = Substring(text.drop { $0 == " " || $0 == "\t" || $0 == "\n" })
        var sign = ""
        if let first = digits.first, first == "-" || first == "+" {
            sign = first == "-" ? "-" : ""
            digits = digits.dropFirst()
        }
        let number = digits.prefix { $0.isASCII && $0.isNumber }
        guard !number.isEmpty else { return NSNull() }
        return Double(sign + number).map { $0.magnitude < 9e15 ? Int64($0) as Any : $0 as Any } ?? NSNull()
    }

    /// `parseRegEx`: a value written `/…/` becomes a RegExp, which JSON writes as `{}`; anything else stays text.
    static func parseRegEx(_ text: String) -> Any {
        text.range(of: #"/(.*)/(.*)"#, options: .regularExpression) != nil ? [String: Any]() : text
    }

    private static func iso(_ ms: Int64) -> String {
        let seconds = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000)
        let millis = ms - seconds * 1000
        return NightscoutTime.iso(seconds).replacingOccurrences(of: ".000Z", with: String(format: ".%03dZ", Int(millis)))
    }
}
