import HealthPipeCore

/// What a `Temp Basal` treatment's rate is, read the way each uploader writes it (docs/vendors/nightscout.md):
///
/// | fields | uploaders | meaning |
/// |---|---|---|
/// | `absolute` | Loop, OpenAPS, Trio/iAPS, xDrip+, AndroidAPS (absolute pumps, or its conversion) | U/h |
/// | `percent` (and `rate` = percent + 100) | AndroidAPS 3.x on percent pumps (Dana, Combo, Insight) | change in % of the scheduled rate; `rate` is the pump's own percentage |
/// | `percent` (and `rate` ≠ percent + 100) | AndroidAPS 2.x, OpenAPS | `rate` is the rate the uploader converted to U/h |
/// | `percent` alone | Nightscout Careportal | change in % of the scheduled rate (−100 = off) |
/// | `isAbsolute` + `rate` | AndroidAPS NSClient v3 | `rate` in U/h when true, in % of the scheduled rate when false |
/// | `temp: "percent"` + `rate` | Loop/RileyLink (Medtronic percent temps) | `rate` in % of the scheduled rate |
/// | `rate` alone, enteredBy or device AndroidAPS | AndroidAPS | the pump's own rate: % of the scheduled rate |
/// | `rate` alone | Loop, OpenAPS, xDrip+, 600-series uploader | U/h |
enum TempBasalRate: Equatable {
    case unitsPerHour(Double, from: String)
    /// Percent of the scheduled rate: 140 = 1.4 × the profile's basal, 0 = off.
    case percentOfScheduled(Double, from: String)
}

extension NightscoutMapper {
    /// A temp basal, or a `Suspend Pump` with a duration (0 U/h): a `basal_rate` measurement over its
    /// span where the rate is known (a temp basal with no rate at all is an event `temp_basal`); a percentage with no profile basal to apply it to waits for the
    /// file's end (a mongoexport may list profiles after treatments), then lands as an insulin event
    /// `temp_basal` with the percentage in its metadata, never as U/h. A temp basal of duration 0
    /// ends the running one: an event `temp_basal` of no length.
    func tempBasal(_ doc: JSONDocument, _ base: Event, suspend: Bool, _ out: inout RecordBatcher) throws {
        let rate: TempBasalRate? = suspend ? .unitsPerHour(0, from: "Suspend Pump") : try tempBasalRate(doc)
        let span = base.end - base.start
        // No rate (the 600-series uploader's cancelled temps: "Temp Basal: 100%, … canceled") or no
        // length (a cancel): kept as an event, never guessed into a rate.
        guard let rate, span > 0 else {
            var e = base
            e.kind = suspend ? .device : .insulin
            e.subtype = suspend ? Symbol("suspend_pump") : Self.tempBasal
            out.add(e)
            return
        }
        switch rate {
        case .unitsPerHour(let u, let from):
            try addBasalRate(u, base, doc, from: from, percent: nil, scheduled: nil, &out)
        case .percentOfScheduled(let p, let from):
            if p == 0 {
                try addBasalRate(0, base, doc, from: from, percent: 0, scheduled: nil, &out)
            } else {
                let metadata = JSONCompact.members(of: doc, skipping: Self.treatmentColumns) { w in
                    w.key("basal_percent"); w.double(p)
                    w.key("basal_rate_from"); w.string(from)
                }
                pendingPercents.append(PendingPercent(event: base, percent: p, metadata: metadata))
            }
        }
    }

    /// The rate as this uploader wrote it (table above); nil when the document has none.
    func tempBasalRate(_ doc: JSONDocument) throws -> TempBasalRate? {
        typealias F = NightscoutFields
        if let a = try amount(doc, F.absolute, Plausibility.basalRate, "absolute", unit: "U/h") {
            return .unitsPerHour(a, from: "absolute")
        }
        let rateValue = doc.present(F.rate) ? doc.number(F.rate) : nil
        if doc.present(F.rate), rateValue == nil { throw JSONFileRun.Reject("rate is not a number", at: doc.path(ofSlot: F.rate)) }
        if let change = try amount(doc, F.percent, Plausibility.tempBasalPercent, "percent", unit: "%") {
            if let r = rateValue, r != change + 100 {
                return .unitsPerHour(try checkedRate(r, doc), from: "rate")
            }
            return .percentOfScheduled(change + 100, from: "percent")
        }
        guard let r = rateValue else { return nil }
        let percentFlag = doc.bool(F.isAbsolute).map { !$0 }
            ?? (doc.string(F.temp).map { $0.lowercased().hasPrefix("percent") })
            ?? Self.isAndroidAPS(doc)
        if percentFlag {
            if let why = Plausibility.check(r - 100, Plausibility.tempBasalPercent, "rate", unit: "% of the scheduled rate") {
                throw JSONFileRun.Reject(why, at: doc.path(ofSlot: F.rate))
            }
            return .percentOfScheduled(r, from: "rate_percent")
        }
        return .unitsPerHour(try checkedRate(r, doc), from: "rate")
    }

    /// AndroidAPS names itself in `enteredBy` or `device` (`openaps://AndroidAPS`); its captured
    /// temp basals carry only `device`.
    static func isAndroidAPS(_ doc: JSONDocument) -> Bool {
        for slot in [NightscoutFields.enteredBy, NightscoutFields.device] where doc.string(slot)?.contains("AndroidAPS") == true {
            return true
        }
        return false
    }

    private func checkedRate(_ r: Double, _ doc: JSONDocument) throws -> Double {
        if let why = Plausibility.check(r, Plausibility.basalRate, "rate", unit: "U/h") {
            throw JSONFileRun.Reject(why, at: doc.path(ofSlot: NightscoutFields.rate))
        }
        return r
    }

    private func addBasalRate(_ u: Double, _ base: Event, _ doc: JSONDocument, from: String, percent: Double?, scheduled: Double?,
                              _ out: inout RecordBatcher) throws {
        let metadata = JSONCompact.members(of: doc, skipping: Self.treatmentColumns) { w in
            w.key("basal_rate_from"); w.string(from)
            if let percent { w.key("basal_percent"); w.double(percent) }
        }
        out.add(basalMeasurement(u, base, metadata: metadata))
    }

    func basalMeasurement(_ u: Double, _ base: Event, metadata: String?) -> Measurement {
        BasalRates.measurement(u, subject: base.subject, source: base.source, start: base.start, end: base.end, utcOffset: base.utcOffset,
                               provenance: base.provenance, metadata: metadata)
    }

    /// At the file's end: each percentage temp basal against the profile basal in force at its local
    /// time (a profile of this file), else an insulin event with the percentage in its metadata.
    func finishPercents(_ out: inout RecordBatcher) throws {
        for p in pendingPercents {
            // A percentage of an implausible profile rate is kept as the event below, not stored as U/h.
            if let scheduled = basalSchedules.rate(atUTC: p.event.start, fallbackOffset: p.event.utcOffset) {
                let m = basalMeasurement(scheduled * p.percent / 100, p.event, metadata: p.metadata)
                if Plausibility.problem(metric: m.metric, value: m.value, unit: m.unit) == nil {
                    out.add(m)
                    continue
                }
            }
            var e = p.event
            e.kind = .insulin
            e.subtype = Self.tempBasal
            e.metadata = p.metadata
            out.add(e)
        }
        pendingPercents.removeAll()
    }
}

/// A percentage temp basal waiting for the file's profiles.
struct PendingPercent {
    var event: Event
    var percent: Double
    var metadata: String?
}

/// The basal schedules of the profiles read from the file, by the time each took effect.
struct BasalSchedules {
    struct Schedule {
        var start: Int64
        var zone: ZoneOffsets?
        /// (seconds after local midnight, U/h), sorted.
        var rates: [(Int, Double)]
    }
    private(set) var schedules: [Schedule] = []

    mutating func add(_ s: Schedule) {
        guard !s.rates.isEmpty else { return }
        schedules.append(s)
        schedules.sort { $0.start < $1.start }
    }

    /// The scheduled rate at an instant: the newest profile started by then (else the oldest), at
    /// the local time of the profile's zone (else of the record's own offset).
    mutating func rate(atUTC t: Int64, fallbackOffset: Int32) -> Double? {
        guard !schedules.isEmpty else { return nil }
        let i = schedules.lastIndex(where: { $0.start <= t }) ?? 0
        let offset = schedules[i].zone?.offset(atUTC: t) ?? fallbackOffset
        let local = Int(((t + Int64(offset)) % 86_400 + 86_400) % 86_400)
        return schedules[i].rates.last(where: { $0.0 <= local })?.1 ?? schedules[i].rates.first?.1
    }
}
