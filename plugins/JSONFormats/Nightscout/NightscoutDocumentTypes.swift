import HealthPipeCore

/// What a Nightscout document is, for the run report's per-type counts (`RowTally`, docs/reliability.md
/// "Every row accounted for"): an entry by its `type`, a treatment by its `eventType`, a device
/// status, a profile. Entry types other than `sgv`/`mbg` (and the non-data `cal`, `sensor`) are
/// quarantined as unknown; a treatment of an eventType no uploader below writes is kept as a note
/// and counted as unknown. Either warns and makes the exit status 3.
enum NightscoutDocumentTypes {
    /// Fixed slots: entries without a `type` (by their value key), statuses, profiles, treatments without an eventType.
    static let fixed = ["sgv", "mbg", "devicestatus", "profile", "treatment (no eventType)"]
    static let sgv = 0, mbg = 1, deviceStatus = 2, profile = 3, untypedTreatment = 4

    /// Entry types (lowercased): readings, and the two that are not (`cal`: a calibration's slope and
    /// intercept; `sensor`: raw sensor counts `filtered`/`unfiltered` of xDrip/the Share bridge).
    static let readingEntryTypes: Set<String> = ["sgv", "mbg"]
    static let nonDataEntryTypes: Set<String> = ["cal", "sensor"]

    /// The eventTypes uploaders write (lowercased): Nightscout's Careportal, Loop, AndroidAPS, Trio/iAPS,
    /// OpenAPS, xDrip+/xDrip4iOS, the 600-series uploader. Each maps as docs/vendors/nightscout.md says.
    static let treatmentTypes: Set<String> = NightscoutMapper.doseTypes.union(NightscoutMapper.deviceEvents).union([
        "bg check", "temp basal", "temp basal start", "temp basal end", "suspend pump", "exercise", "note", "announcement",
        "question", "profile switch", "effective profile switch", "temporary target", "temporary target cancel",
        "temporary override", "openaps offline", "aps offline", "d.a.d. alert", "bolus wizard", "carbs", "<none>",
        "fingerstick sensor calibration",
        // AndroidAPS's NSSDK EventType (core/nssdk …/treatment/EventType.kt) and Trio's external doses.
        "mbg", "settings export", "external insulin",
    ])

    static func slot(_ doc: JSONDocument, _ kind: NightscoutFields.Kind, _ tally: inout RowTally) -> Int {
        typealias F = NightscoutFields
        switch kind {
        case .entry:
            let typed = doc.withText(F.type) { b in
                b.isEmpty ? nil : tally.slot(named: b, known: Self.isKnownEntryType(b))
            }
            return (typed ?? nil) ?? (!doc.has(F.sgv) && doc.has(F.mbg) ? mbg : sgv)
        case .treatment:
            let typed = doc.withText(F.eventType) { b in
                b.isEmpty ? nil : tally.slot(named: b, known: treatmentTypes.contains(String(decoding: b, as: UTF8.self).lowercased()))
            }
            return (typed ?? nil) ?? untypedTreatment
        case .deviceStatus: return deviceStatus
        case .profile: return profile
        case .unknown: return tally.untyped
        }
    }

    static func isKnownEntryType(_ b: UnsafeRawBufferPointer) -> Bool {
        let t = String(decoding: b, as: UTF8.self).lowercased()
        return readingEntryTypes.contains(t) || nonDataEntryTypes.contains(t)
    }
}
