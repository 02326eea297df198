import Foundation
import HealthPipeCore

/// Places a parsed timestamp in UTC: explicit offsets are used as they are; naive local times go
/// through the configured zone, and without one the file is refused (never a silent UTC guess).
struct LocalTimePlacer {
    private var resolver: ZoneResolver?
    let file: String
    let format: String

    init(zone: TimeZone?, ambiguous: AmbiguousTimePolicy, nonexistent: NonexistentTimePolicy, file: String, format: String) {
        resolver = zone.map { ZoneResolver(zone: $0, ambiguous: ambiguous, nonexistent: nonexistent) }
        self.file = file
        self.format = format
    }

    /// Throws `InputError` (the whole file) when a zone is needed and missing, or a `ZoneResolutionError`
    /// (the row) when the policy rejects a DST-ambiguous or nonexistent time.
    @inline(__always)
    mutating func place(_ t: ParsedTimestamp, line: Int64) throws -> ZoneResolver.Resolved {
        if let o = t.offset { return .init(utc: t.seconds - Int64(o), offset: o, flags: []) }
        guard resolver != nil else {
            throw InputError(file: file, line: line, reason: "\(format) timestamps are local time without a zone: "
                             + "pass --timezone (e.g. --timezone Europe/London) or set 'timezone:' in the pipeline")
        }
        return try resolver!.resolve(local: t.seconds)
    }
}

/// Options every CSV source shares.
public struct CSVCommonOptions: Sendable {
    public var path: String
    public var zone: TimeZone?
    public var ambiguous: AmbiguousTimePolicy
    public var nonexistent: NonexistentTimePolicy
    public var subject: Symbol

    public init(path: String, zone: TimeZone?, ambiguous: AmbiguousTimePolicy = .earlier,
                nonexistent: NonexistentTimePolicy = .shiftForward, subject: String) {
        self.path = path
        self.zone = zone
        self.ambiguous = ambiguous
        self.nonexistent = nonexistent
        self.subject = Symbol(subject)
    }

    static let docs: [OptionDoc] = [
        OptionDoc("path", "path", "the export file to read (`-` for standard input)"),
        OptionDoc("timezone", "IANA zone or ±HH:MM", default: "the run's --timezone",
                  "zone of the file's naive local timestamps; required when the file has no offsets"),
        OptionDoc("subject", "text", default: "the run's --subject", "whose data this is"),
        OptionDoc("ambiguous_time", "earlier | later | error", default: "earlier",
                  "a local time that occurs twice at a DST fall-back"),
        OptionDoc("nonexistent_time", "shift-forward | error", default: "shift-forward",
                  "a local time inside a DST spring-forward gap"),
    ]
}

/// The YAML form of `CSVCommonOptions`, decoded as part of each source's options.
struct CommonOptionFields: Decodable {
    var path: String
    var timezone: String?
    var subject: String?
    var ambiguous_time: AmbiguousTimePolicy?
    var nonexistent_time: NonexistentTimePolicy?

    func resolve(_ b: ComponentBuilder) throws -> CSVCommonOptions {
        CSVCommonOptions(path: b.path(path), zone: try b.zone(timezone), ambiguous: ambiguous_time ?? .earlier,
                         nonexistent: nonexistent_time ?? .shiftForward, subject: subject ?? b.settings.subject)
    }
}
