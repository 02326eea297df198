import Foundation
import HealthPipeCore

/// Options of the `nightscout` source.
struct NightscoutOptions {
    var path: String
    /// Zone for local days of documents without their own offset (a non-zero `utcOffset` or offset
    /// in the date text wins), and for ISO times written without an offset.
    var zone: TimeZone?
    var subject: Symbol
    /// CGM family for entries whose `device` names none (iAPS and Loop write no device).
    var cgm: String?

    static let docs: [OptionDoc] = [
        OptionDoc("path", "path", required: true, "the Nightscout JSON file: an API dump (entries.json, treatments.json, devicestatus.json, "
                  + "profile.json) or a mongoexport file (`-` for standard input)"),
        OptionDoc("timezone", "IANA zone or ±HH:MM", default: "the run's --timezone",
                  "zone for the local days of documents that carry no offset of their own (a non-zero utcOffset or the offset "
                  + "in dateString/created_at wins), and for ISO times written without an offset; many uploaders write "
                  + "utcOffset 0 and ...Z whatever their zone, which counts as no offset"),
        OptionDoc("subject", "text", default: "the run's --subject", "whose data this is"),
        OptionDoc("cgm", "text", default: "from each entry's device, else Nightscout",
                  "CGM family of entries whose device is not named (Dexcom, FreeStyle Libre, Medtronic, Eversense): readings "
                  + "of one family from several exports share one source, so overlapping imports do not double-count"),
    ]
}

extension NightscoutOptions {
    /// The options as a stage gives them (`docs`), with the run's zone and subject as defaults.
    static func read(_ b: ComponentBuilder) throws -> NightscoutOptions {
        NightscoutOptions(path: b.path(try b.required("path")), zone: try b.zone(b.value("timezone")),
                          subject: Symbol(try b.value("subject") ?? b.settings.subject),
                          cgm: try b.value("cgm", as: String.self).map { CGMSource.family(of: $0) ?? $0 })
    }
}
