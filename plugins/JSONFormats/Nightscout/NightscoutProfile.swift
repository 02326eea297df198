import HealthPipeCore

/// Profiles → the subject's `subject_profiles` row (source `nightscout`): the display units
/// (`mg/dl` or `mmol`; entries stay mg/dL whatever it says), the IANA time zone, and the default
/// profile's settings (DIA, carb ratio, sensitivity, basal and target schedules in the profile's
/// units) as JSON attributes. A profile document is a history entry: the newest one wins.
extension NightscoutMapper {
    func profile(_ doc: JSONDocument) throws {
        typealias F = NightscoutFields
        let started = time(doc, F.startDate)?.utc ?? time(doc, F.mills)?.utc ?? time(doc, F.createdAt)?.utc ?? .min
        guard started >= newestProfileTime else { return }
        guard let store = doc.node(F.store) else { throw JSONFileRun.Reject("profile without a store") }
        let defaultName = doc.string(F.defaultProfile) ?? doc.children(of: store).first.map {
            String(decoding: doc.keyBytes($0), as: UTF8.self)
        } ?? ""
        guard let active = doc.child(of: store, named: defaultName) else {
            throw JSONFileRun.Reject("defaultProfile '\(defaultName)' is not in the store", at: doc.path(ofSlot: F.defaultProfile))
        }
        var w = JSONWriter(capacity: 1024)
        w.beginObject()
        w.key("default_profile"); w.string(defaultName)
        if let u = doc.child(of: active, named: "units").flatMap({ doc.string(node: $0) }) ?? doc.string(F.units) {
            w.key("units"); w.string(u)
        }
        if let tz = doc.child(of: active, named: "timezone").flatMap({ doc.string(node: $0) }) {
            w.key("timezone"); w.string(tz)
        }
        if started != .min { w.key("start_date"); w.string(CivilDate.isoDateTime(seconds: started) + "Z") }
        for c in doc.children(of: active) {
            let key = String(decoding: doc.keyBytes(c), as: UTF8.self)
            if key == "units" || key == "timezone" { continue }
            w.key(key)
            JSONCompact.value(doc, c, &w)
        }
        w.endObject()
        newestProfileTime = started
        newestProfile = SubjectProfile(subject: options.subject, source: Symbol("nightscout"),
                                       attributes: String(decoding: w.bytes, as: UTF8.self), provenance: provenance(doc))
    }
}
