import Foundation
import HealthPipeCore

/// Profiles → the subject's `subject_profiles` row (source `nightscout`): the display units
/// (`mg/dl` or `mmol`; entries stay mg/dL whatever it says), the IANA time zone, and the default
/// profile's settings (DIA, carb ratio, sensitivity, basal and target schedules in the profile's
/// units) as JSON attributes. A profile document is a history entry: the newest one wins.
extension NightscoutMapper {
    func profile(_ doc: JSONDocument) throws {
        typealias F = NightscoutFields
        let started = time(doc, F.startDate)?.utc ?? time(doc, F.mills)?.utc ?? time(doc, F.createdAt)?.utc ?? .min
        guard let store = doc.node(F.store) else { throw JSONFileRun.Reject("profile without a store") }
        let defaultName = doc.string(F.defaultProfile) ?? doc.children(of: store).first.map {
            String(decoding: doc.keyBytes($0), as: UTF8.self)
        } ?? ""
        guard let active = doc.child(of: store, named: defaultName) else {
            throw JSONFileRun.Reject("defaultProfile '\(defaultName)' is not in the store", at: doc.path(ofSlot: F.defaultProfile))
        }
        basalSchedules.add(try basalSchedule(doc, active, start: started))
        guard started >= newestProfileTime else { return }
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

    /// The profile's `basal` schedule (`[{"time":"06:30","timeAsSeconds":23400,"value":0.85}]`) in its `timezone`.
    /// An entry's time is a time of day (`NumberRule.secondOfDay`, or `HH:MM`); any other refuses the profile
    /// with the entry named (a `timeAsSeconds` of 1e80 trapped converting to Int: found by fuzzing).
    private func basalSchedule(_ doc: JSONDocument, _ active: Int, start: Int64) throws -> BasalSchedules.Schedule {
        var rates: [(Int, Double)] = []
        if let basal = doc.child(of: active, named: "basal") {
            for item in doc.children(of: basal) {
                guard let v = doc.child(of: item, named: "value").flatMap({ doc.number(node: $0) }) else { continue }
                var seconds: Int?
                if let given = doc.child(of: item, named: "timeAsSeconds").flatMap({ doc.number(node: $0) }) {
                    if let why = NumberRule.secondOfDay.problem(given, name: "basal timeAsSeconds") { throw JSONFileRun.Reject(why) }
                    seconds = Int(given)
                } else if let t = doc.child(of: item, named: "time").flatMap({ doc.string(node: $0) }) {
                    let hm = t.split(separator: ":").compactMap { Int($0) }
                    guard hm.count >= 2, (0..<24).contains(hm[0]), (0..<60).contains(hm[1]) else {
                        throw JSONFileRun.Reject("basal time '\(t)' is not a time of day such as 06:30")
                    }
                    seconds = hm[0] * 3600 + hm[1] * 60
                }
                if let seconds { rates.append((seconds, v)) }
            }
        }
        rates.sort { $0.0 < $1.0 }
        let zone = doc.child(of: active, named: "timezone").flatMap { doc.string(node: $0) }.flatMap { TimeZone(identifier: $0) }
        return BasalSchedules.Schedule(start: start, zone: zone.map { ZoneOffsets(zone: $0) }, rates: rates)
    }
}
