import Foundation
import HealthPipeCore

/// Options every CSV source shares.
public struct CSVCommonOptions: Sendable {
    public var path: String
    public var zone: TimeZone?
    public var ambiguous: AmbiguousTimePolicy
    public var nonexistent: NonexistentTimePolicy
    public var subject: Symbol

    public init(path: String, zone: TimeZone?, ambiguous: AmbiguousTimePolicy = .fileOrder,
                nonexistent: NonexistentTimePolicy = .shiftForward, subject: String) {
        self.path = path
        self.zone = zone
        self.ambiguous = ambiguous
        self.nonexistent = nonexistent
        self.subject = Symbol(subject)
    }

    public static let docs: [OptionDoc] = [
        OptionDoc("path", "path", required: true, "the export file to read (`-` for standard input)"),
        OptionDoc("timezone", "IANA zone or ±HH:MM", default: "the run's --timezone",
                  "zone of the file's naive local timestamps; required when the file has no offsets"),
        OptionDoc("subject", "text", default: "the run's --subject", "whose data this is"),
        OptionDoc("ambiguous_time", "file-order | earlier | later | error", default: "file-order",
                  "a local time that occurs twice at a DST fall-back (file-order: the first pass through the hour "
                  + "is the earlier instant, rows after the clock goes back the later one)"),
        OptionDoc("nonexistent_time", "shift-forward | error", default: "shift-forward",
                  "a local time inside a DST spring-forward gap"),
    ]
}

extension CSVCommonOptions {
    /// The options as a stage gives them (`docs`), with the run's zone and subject as defaults.
    public static func read(_ b: ComponentBuilder) throws -> CSVCommonOptions {
        CSVCommonOptions(path: b.path(try b.required("path")), zone: try b.zone(b.value("timezone")),
                         ambiguous: try b.value("ambiguous_time") ?? .fileOrder,
                         nonexistent: try b.value("nonexistent_time") ?? .shiftForward,
                         subject: try b.value("subject") ?? b.settings.subject)
    }
}
