import HealthPipeCore

/// What every record from one row shares: who, which device, when, and which line.
struct RowStamp {
    var subject: Symbol
    var source: Symbol
    var at: ZoneResolver.Resolved
    var provenance: Provenance

    func measurement(_ metric: Symbol, value: Double, unit: Symbol, flags: RecordFlags) -> Measurement {
        Measurement(subject: subject, metric: metric, source: source, start: at.utc, utcOffset: at.offset, value: value,
                    unit: unit, flags: at.flags.union(flags), provenance: provenance)
    }

    /// A basal rate (BasalRates) from this row's time to `end` (nil: a scheduled change at an instant).
    func basalRate(_ rate: Double, end: Int64? = nil, metadata: String? = nil) -> Measurement {
        BasalRates.measurement(rate, subject: subject, source: source, start: at.utc, end: end ?? at.utc, utcOffset: at.offset,
                               flags: at.flags, provenance: provenance, metadata: metadata)
    }

    func event(_ kind: Event.Kind, subtype: Symbol = .empty, end: Int64? = nil, carbs: Double? = nil,
               insulin: Double? = nil, note: String? = nil, flags: RecordFlags = []) -> Event {
        Event(subject: subject, kind: kind, subtype: subtype, source: source, start: at.utc, end: end, utcOffset: at.offset,
              carbs: carbs, insulin: insulin, note: note, flags: at.flags.union(flags), provenance: provenance)
    }
}
