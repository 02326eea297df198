import Foundation
import HealthPipeCore

/// Options of the `tidepool` source.
struct TidepoolOptions {
    var path: String
    /// Zone for local days of data without a `timezoneOffset`.
    var zone: TimeZone?
    var subject: Symbol

    static let docs: [OptionDoc] = [
        OptionDoc("path", "path", required: true, "the Tidepool JSON export (`-` for standard input)"),
        OptionDoc("timezone", "IANA zone or ±HH:MM", default: "UTC",
                  "zone for local days of data that carry no timezoneOffset (every datum Tidepool exports has one)"),
        OptionDoc("subject", "text", default: "the run's --subject", "whose data this is"),
    ]
}

extension TidepoolOptions {
    /// The options as a stage gives them (`docs`), with the run's zone and subject as defaults.
    static func read(_ b: ComponentBuilder) throws -> TidepoolOptions {
        TidepoolOptions(path: b.path(try b.required("path")), zone: try b.zone(b.value("timezone")),
                        subject: Symbol(try b.value("subject") ?? b.settings.subject))
    }
}
