import Foundation
import HealthPipeCore

/// Options of the `nightscout` source.
struct NightscoutOptions {
    var path: String
    /// Zone for local days; nil keeps each document's `utcOffset` (or the offset in its date text).
    var zone: TimeZone?
    var subject: Symbol
    /// CGM family for entries whose `device` names none (iAPS and Loop write no device).
    var cgm: String?

    static let docs: [OptionDoc] = [
        OptionDoc("path", "path", required: true, "the Nightscout JSON file: an API dump (entries.json, treatments.json, devicestatus.json, "
                  + "profile.json) or a mongoexport file (`-` for standard input)"),
        OptionDoc("timezone", "IANA zone or ±HH:MM", default: "the run's --timezone, else each document's utcOffset",
                  "zone for local days; Nightscout times are UTC instants, and many uploaders write utcOffset 0 whatever their zone"),
        OptionDoc("subject", "text", default: "the run's --subject", "whose data this is"),
        OptionDoc("cgm", "text", default: "from each entry's device, else Nightscout",
                  "CGM family of entries whose device is not named (Dexcom, FreeStyle Libre, Medtronic, Eversense): readings "
                  + "of one family from several exports share one source, so overlapping imports do not double-count"),
    ]
}

struct NightscoutOptionFields: Decodable {
    var path: String
    var timezone: String?
    var subject: String?
    var cgm: String?

    func resolve(_ b: ComponentBuilder) throws -> NightscoutOptions {
        NightscoutOptions(path: b.path(path), zone: try b.zone(timezone), subject: Symbol(subject ?? b.settings.subject),
                          cgm: cgm.map { CGMSource.family(of: $0) ?? $0 })
    }
}
