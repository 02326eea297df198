import HealthPipeCore

/// One NDJSON record object → the record it describes: the inverse of the `ndjson` sink, so records
/// written by one HealthPipe can be read by another (a filter between engines, a partitioned output
/// read back). A missing or mistyped field rejects the line with its JSON path; unknown fields (the
/// partitioned sink's `id`) are ignored.
struct NDJSONRecordMapper {
    typealias F = NDJSONRecordFields
    let file: Symbol
    private var symbols = BytesCache<Symbol>()
    private var provenanceFiles = BytesCache<Symbol>()

    init(file: Symbol) { self.file = file }

    mutating func map(_ doc: JSONDocument, into out: inout RecordBatcher) throws {
        guard let type = doc.string(F.type) else {
            throw JSONFileRun.Reject("a HealthPipe record needs a \"type\" (\(F.types.joined(separator: ", ")))", at: doc.path(ofSlot: F.type))
        }
        switch type {
        case "measurement": out.add(try measurement(doc))
        case "event": out.add(try event(doc))
        case "daily": out.addDaily(try daily(doc))
        case "metrics": out.addMetrics(try metrics(doc))
        case "forecast": out.addForecast(try forecast(doc))
        case "alert": out.addAlert(try alert(doc))
        case "profile": out.add(try profile(doc))
        default:
            throw JSONFileRun.Reject("unknown record type '\(type)' (\(F.types.joined(separator: ", ")))", at: doc.path(ofSlot: F.type))
        }
    }

    private mutating func measurement(_ doc: JSONDocument) throws -> Measurement {
        let start = try int(doc, F.start)
        return Measurement(subject: try symbol(doc, F.subject), metric: try symbol(doc, F.metric), source: try symbol(doc, F.source),
                           start: start, end: try optionalInt(doc, F.end) ?? start, utcOffset: try offset(doc),
                           value: try number(doc, F.value), unit: try symbol(doc, F.unit), flags: try flags(doc),
                           band: optionalSymbol(doc, F.band), provenance: provenance(doc), device: rawSymbol(doc, F.device),
                           metadata: raw(doc, F.metadata))
    }

    private mutating func event(_ doc: JSONDocument) throws -> Event {
        guard let kindText = doc.string(F.kind), let kind = Event.Kind(rawValue: kindText) else {
            throw JSONFileRun.Reject("an event needs a kind (\(Event.Kind.allCases.map(\.rawValue).joined(separator: ", ")))",
                                     at: doc.path(ofSlot: F.kind))
        }
        let start = try int(doc, F.start)
        return Event(subject: try symbol(doc, F.subject), kind: kind, subtype: optionalSymbol(doc, F.subtype),
                     source: try symbol(doc, F.source), start: start, end: try optionalInt(doc, F.end) ?? start,
                     utcOffset: try offset(doc), carbs: try optionalNumber(doc, F.carbs), protein: try optionalNumber(doc, F.protein),
                     fat: try optionalNumber(doc, F.fat), insulin: try optionalNumber(doc, F.insulin),
                     intensity: optionalSymbol(doc, F.intensity), note: doc.string(F.note), flags: try flags(doc),
                     provenance: provenance(doc), device: rawSymbol(doc, F.device), metadata: raw(doc, F.metadata))
    }

    private mutating func daily(_ doc: JSONDocument) throws -> DailySummary {
        var bands: [BandShare] = []
        if let node = doc.node(F.bands) {
            for c in doc.children(of: node) {
                guard let p = doc.number(node: c) else { throw JSONFileRun.Reject("a band share is not a number", at: doc.path(of: c)) }
                bands.append(BandShare(band: Symbol(String(decoding: doc.keyBytes(c), as: UTF8.self)), percent: p))
            }
        }
        var sources: [SourceShare] = []
        if let node = doc.node(F.totalSources) {
            for c in doc.children(of: node) {
                guard let a = doc.number(node: c) else { throw JSONFileRun.Reject("a source's share of a total is not a number", at: doc.path(of: c)) }
                sources.append(SourceShare(source: Symbol(String(decoding: doc.keyBytes(c), as: UTF8.self)), amount: a))
            }
        }
        return DailySummary(subject: try symbol(doc, F.subject), metric: try symbol(doc, F.metric), day: try date(doc, F.day),
                            unit: try symbol(doc, F.unit), count: Int(try int(doc, F.n)), min: try number(doc, F.min),
                            max: try number(doc, F.max), mean: try number(doc, F.mean), sd: try optionalNumber(doc, F.sd),
                            bandPercents: bands, hypo: doc.bool(F.hypo) ?? false, hyper: doc.bool(F.hyper) ?? false,
                            carbsGrams: try optionalNumber(doc, F.carbs) ?? 0, insulinUnits: try optionalNumber(doc, F.insulin) ?? 0,
                            exerciseMinutes: try optionalNumber(doc, F.exercise) ?? 0, illness: doc.bool(F.illness) ?? false,
                            stress: doc.bool(F.stress) ?? false, total: try optionalNumber(doc, F.total), totalSources: sources)
    }

    private mutating func metrics(_ doc: JSONDocument) throws -> MetricSet {
        var values: [NamedValue] = []
        if let node = doc.node(F.values) {
            for c in doc.children(of: node) {
                // NaN and infinities are written as null: the value is not known.
                let v = doc.nodes[c].kind == .null ? Double.nan : doc.number(node: c)
                guard let v else { throw JSONFileRun.Reject("a metric value is not a number", at: doc.path(of: c)) }
                values.append(NamedValue(String(decoding: doc.keyBytes(c), as: UTF8.self), v))
            }
        }
        var agp: [AGPPoint] = []
        if let node = doc.node(F.agp) {
            for p in doc.children(of: node) {
                func field(_ name: String) throws -> Double {
                    guard let c = doc.child(of: p, named: name), let v = doc.number(node: c) else {
                        throw JSONFileRun.Reject("an AGP point needs \(name)", at: doc.path(of: p))
                    }
                    return v
                }
                agp.append(AGPPoint(minuteOfDay: Int(try field("minute")), count: Int(try field("n")), p05: try field("p05"),
                                    p25: try field("p25"), p50: try field("p50"), p75: try field("p75"), p95: try field("p95")))
            }
        }
        return MetricSet(subject: try symbol(doc, F.subject), metric: try symbol(doc, F.metric), unit: try symbol(doc, F.unit),
                         firstDay: try date(doc, F.from), lastDay: try date(doc, F.to), values: values, agp: agp)
    }

    private mutating func forecast(_ doc: JSONDocument) throws -> ForecastPoint {
        ForecastPoint(subject: try symbol(doc, F.subject), metric: try symbol(doc, F.metric), model: try symbol(doc, F.model),
                      issuedAt: try int(doc, F.issuedAt), at: try int(doc, F.at), utcOffset: try offset(doc),
                      value: try number(doc, F.value))
    }

    private mutating func alert(_ doc: JSONDocument) throws -> Alert {
        guard let kindText = doc.string(F.kind), let kind = Alert.Kind(rawValue: kindText) else {
            throw JSONFileRun.Reject("an alert needs a kind (\(Alert.Kind.allCases.map(\.rawValue).joined(separator: ", ")))",
                                     at: doc.path(ofSlot: F.kind))
        }
        return Alert(subject: try symbol(doc, F.subject), metric: try symbol(doc, F.metric), kind: kind, start: try int(doc, F.start),
                     end: try int(doc, F.end), utcOffset: try offset(doc), value: try number(doc, F.value),
                     threshold: try number(doc, F.threshold), model: optionalSymbol(doc, F.model))
    }

    private mutating func profile(_ doc: JSONDocument) throws -> SubjectProfile {
        SubjectProfile(subject: try symbol(doc, F.subject), source: try symbol(doc, F.source), dateOfBirth: doc.string(F.dateOfBirth),
                       biologicalSex: doc.string(F.biologicalSex), bloodType: doc.string(F.bloodType), skinType: doc.string(F.skinType),
                       attributes: raw(doc, F.attributes) ?? "{}", provenance: provenance(doc))
    }

    // MARK: Fields

    private mutating func symbol(_ doc: JSONDocument, _ slot: Int) throws -> Symbol {
        guard doc.kind(slot) == .string || doc.kind(slot) == .escapedString else {
            throw JSONFileRun.Reject("\(F.names[slot]) must be a string", at: doc.path(ofSlot: slot))
        }
        return optionalSymbol(doc, slot)
    }

    /// A string field interned once per distinct value; empty when absent.
    private mutating func optionalSymbol(_ doc: JSONDocument, _ slot: Int) -> Symbol {
        guard let kind = doc.kind(slot), let bytes = doc.bytes(slot) else { return .empty }
        switch kind {
        case .string: return symbols.value(bytes) { Symbol($0) }
        case .escapedString: return Symbol(doc.string(slot) ?? "")
        default: return .empty
        }
    }

    /// A JSON object kept as its text (device, metadata).
    private func raw(_ doc: JSONDocument, _ slot: Int) -> String? {
        guard let n = doc.node(slot), doc.nodes[n].kind == .object else { return nil }
        return String(decoding: doc.valueBytes(n), as: UTF8.self)
    }

    private mutating func rawSymbol(_ doc: JSONDocument, _ slot: Int) -> Symbol {
        guard let n = doc.node(slot), doc.nodes[n].kind == .object else { return .empty }
        return symbols.value(doc.valueBytes(n)) { Symbol($0) }
    }

    private func number(_ doc: JSONDocument, _ slot: Int) throws -> Double {
        guard doc.kind(slot) == .number, let v = doc.number(slot) else {
            throw JSONFileRun.Reject(doc.present(slot) ? "\(F.names[slot]) is not a number" : "\(F.names[slot]) is missing",
                                     at: doc.path(ofSlot: slot))
        }
        return v
    }

    private func optionalNumber(_ doc: JSONDocument, _ slot: Int) throws -> Double? {
        guard doc.present(slot) else { return nil }
        return try number(doc, slot)
    }

    private func int(_ doc: JSONDocument, _ slot: Int) throws -> Int64 {
        guard let v = Int64(exactly: try number(doc, slot)) else {
            throw JSONFileRun.Reject("\(F.names[slot]) is not a whole number", at: doc.path(ofSlot: slot))
        }
        return v
    }

    private func optionalInt(_ doc: JSONDocument, _ slot: Int) throws -> Int64? {
        guard doc.present(slot) else { return nil }
        return try int(doc, slot)
    }

    private func offset(_ doc: JSONDocument) throws -> Int32 {
        let v = try int(doc, F.utcOffset)
        guard abs(v) <= 18 * 3600 else { throw JSONFileRun.Reject("utc_offset \(v) s is beyond ±18 h", at: doc.path(ofSlot: F.utcOffset)) }
        return Int32(v)
    }

    private func flags(_ doc: JSONDocument) throws -> RecordFlags {
        guard let v = try optionalInt(doc, F.flags) else { return [] }
        guard let raw = UInt32(exactly: v) else { throw JSONFileRun.Reject("flags \(v) is not a bit set", at: doc.path(ofSlot: F.flags)) }
        return RecordFlags(rawValue: raw)
    }

    private func date(_ doc: JSONDocument, _ slot: Int) throws -> Int64 {
        guard let text = doc.string(slot), let d = CivilDate.days(fromISO: text) else {
            throw JSONFileRun.Reject("\(F.names[slot]) must be a date (YYYY-MM-DD)", at: doc.path(ofSlot: slot))
        }
        return d
    }

    /// The record's own file and line when it carries them (a round trip keeps where a reading came
    /// from); else this input and its line.
    private mutating func provenance(_ doc: JSONDocument) -> Provenance {
        guard let origin = doc.withText(F.file, { b in provenanceFiles.value(b) { Symbol($0) } }) else {
            return Provenance(file: file, line: doc.line)
        }
        let line = doc.number(F.line).flatMap { Int64(exactly: $0) } ?? 0
        return Provenance(file: origin, line: line)
    }
}
