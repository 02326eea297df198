import Foundation
import HealthPipeCore

/// The resolved options of an `apple-health` source.
struct AppleHealthOptions: Sendable {
    var path: String
    var subject: Symbol
    /// Zone for local days of records without an HKTimeZone entry; nil keeps the offset written in
    /// each date (the phone's zone at export time).
    var zone: TimeZone?
    var types = TypeFilter()
    var sources: Set<String> = []
    /// Local days (days since 1970-01-01), inclusive.
    var fromDay: Int64?
    var toDay: Int64?

    static let docs: [OptionDoc] = [
        OptionDoc("path", "path", required: true, "export.zip as the Health app writes it (any name; the XML inside is found by content), "
                  + "or the unpacked export.xml"),
        OptionDoc("subject", "text", default: "the run's --subject", "whose data this is"),
        OptionDoc("timezone", "IANA zone or ±HH:MM", default: "the offset written in each date",
                  "zone for local days of records that carry no HKTimeZone metadata"),
        OptionDoc("types", "list", default: "all", "record types to import, by HK identifier "
                  + "(HKQuantityTypeIdentifierBloodGlucose) or metric name (glucose, step_count, sleep_analysis, workout, activity_summary)"),
        OptionDoc("exclude_types", "list", default: "none", "record types to skip (same names as `types`)"),
        OptionDoc("sources", "list", default: "all", "only records whose sourceName is one of these (e.g. [Dexcom])"),
        OptionDoc("from", "YYYY-MM-DD", default: "no limit", "first local day to import"),
        OptionDoc("to", "YYYY-MM-DD", default: "no limit", "last local day to import"),
    ]
}

/// The YAML form of the options.
extension AppleHealthOptions {
    /// The options as a stage gives them (`docs`).
    static func read(_ b: ComponentBuilder) throws -> AppleHealthOptions {
        var o = AppleHealthOptions(path: b.path(try b.required("path")), subject: Symbol(try b.value("subject") ?? b.settings.subject))
        // Only this stage's own timezone option overrides the written offsets, not the run's default.
        if let timezone = try b.value("timezone", as: String.self) { o.zone = try b.zone(timezone) }
        o.types = TypeFilter(allow: Set(try b.value("types") ?? []), deny: Set(try b.value("exclude_types") ?? []))
        o.sources = Set(try b.value("sources") ?? [])
        func day(_ text: String?, _ option: String) throws -> Int64? {
            guard let text else { return nil }
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3, (1...12).contains(parts[1]),
                  (1...CivilDate.daysInMonth(year: parts[0], month: parts[1])).contains(parts[2]) else {
                throw b.error("'\(text)' is not a date (use YYYY-MM-DD)", option: option)
            }
            return CivilDate.days(year: parts[0], month: parts[1], day: parts[2])
        }
        o.fromDay = try day(b.value("from"), "from")
        o.toDay = try day(b.value("to"), "to")
        return o
    }
}
