import Foundation
import SQLiteStore

/// A document an answer is made of, with the stored rows it was made from: deleting the document
/// deletes those rows (`NightscoutDeletion`).
struct NightscoutDocumentRows {
    var doc: [String: Any]
    var rows: [NightscoutRows.Row]
}

/// Stored rows as Nightscout treatments (`lib/api/treatments`). A treatment an upload or import
/// brought keeps every field it was sent with in the metadata of the rows it became (its eventType,
/// duration, rate, absolute, glucose, units …); the columns give back `created_at`, `insulin`,
/// `carbs`, `protein`, `fat`, `notes` and `enteredBy`. A Meal Bolus became a bolus and a meal: rows of
/// one instant with the same metadata are one treatment again. Events other sources stored (Clarity,
/// the health log) are shown as the treatment Nightscout's Careportal would have made of them.
enum NightscoutTreatments {
    /// Readings a treatment can become (BG Check, Temp Basal / Suspend Pump).
    static let metrics = ["blood_glucose", "basal_rate"]
    /// Metadata keys HealthPipe adds (how a temp basal's rate was read), not the uploader's.
    static let addedKeys: Set<String> = ["basal_rate_from", "basal_percent"]

    static func documents(_ rows: [NightscoutRows.Row]) -> [[String: Any]] { groups(rows).map(\.doc) }

    /// The treatments of `rows`, newest first, each with the rows it was made of (what deleting it deletes).
    static func groups(_ rows: [NightscoutRows.Row]) -> [NightscoutDocumentRows] {
        var order: [String] = []
        var merged: [String: NightscoutDocumentRows] = [:]
        for row in rows.sorted(by: { $0.start > $1.start }) {
            guard let doc = document(row) else { continue }
            // One upload's rows share their metadata text; anything else stands alone.
            let key = row.metadata.map { "\(row.start)\u{0}\(row.source)\u{0}\($0)" } ?? "\(order.count)\u{0}"
            if var have = merged[key] {
                have.doc.merge(doc) { old, _ in old }
                have.rows.append(row)
                merged[key] = have
            } else {
                order.append(key)
                merged[key] = NightscoutDocumentRows(doc: doc, rows: [row])
            }
        }
        return order.compactMap { merged[$0] }
    }

    private static func document(_ row: NightscoutRows.Row) -> [String: Any]? {
        var doc: [String: Any] = row.metadata.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
        for key in addedKeys { doc[key] = nil }
        if doc["eventType"] == nil {
            guard let eventType = careportalType(row) else { return nil }
            doc["eventType"] = eventType
            if row.end > row.start { doc["duration"] = Double(row.end - row.start) / 60 }
        }
        doc["created_at"] = NightscoutTime.iso(row.start)
        doc["utcOffset"] = Int(row.utcOffset / 60)
        if row.source != "Nightscout" { doc["enteredBy"] = row.source }
        if let v = row.insulin { doc["insulin"] = v }
        if let v = row.carbs { doc["carbs"] = v }
        if let v = row.protein { doc["protein"] = v }
        if let v = row.fat { doc["fat"] = v }
        // The mapping keeps a Temporary Target's reason or a Profile Switch's profile as the note too.
        if let note = row.note, note != doc["reason"] as? String, note != doc["profile"] as? String { doc["notes"] = note }
        doc["_id"] = NightscoutID.make("treatments", doc["eventType"] as? String ?? "", seconds: row.start)
        return doc
    }

    /// The eventType of an event stored without one (another source's), as Careportal names it.
    private static func careportalType(_ row: NightscoutRows.Row) -> String? {
        switch (row.kind, row.subtype) {
        case ("insulin", "bolus"): return "Correction Bolus"
        case ("meal", _): return "Carb Correction"
        case ("exercise", _): return "Exercise"
        case ("note", _): return "Note"
        default: return nil
        }
    }
}

/// Stored device-status readings (what the mapping read from Loop, OpenAPS/AAPS, pumps and phones:
/// insulin and carbs on board, reservoir, batteries) as Nightscout device statuses, one per source
/// and instant, in the layout of the loop that sent them (`loop.iob.iob` for `loop://…`, else `openaps`).
enum NightscoutDeviceStatus {
    static let metrics = ["insulin_on_board", "carbs_on_board", "pump_reservoir", "pump_battery", "uploader_battery"]

    static func documents(_ rows: [NightscoutRows.Row]) -> [[String: Any]] { groups(rows).map(\.doc) }

    /// The statuses of `rows`, newest first, each with the readings it was made of.
    static func groups(_ rows: [NightscoutRows.Row]) -> [NightscoutDocumentRows] {
        var order: [String] = []
        var docs: [String: [String: Any]] = [:]
        var made: [String: [NightscoutRows.Row]] = [:]
        for row in rows.sorted(by: { $0.start > $1.start }) {
            let key = "\(row.start)\u{0}\(row.source)"
            made[key, default: []].append(row)
            var doc = docs[key] ?? [
                "_id": NightscoutID.make("devicestatus", row.source, seconds: row.start), "device": row.source,
                "created_at": NightscoutTime.iso(row.start), "utcOffset": Int(row.utcOffset / 60),
            ]
            if docs[key] == nil { order.append(key) }
            let loop = row.source.hasPrefix("loop://") ? "loop" : "openaps"
            let v = row.value ?? 0
            switch row.kind {
            case "insulin_on_board": set(&doc, [loop, "iob"], "iob", v)
            case "carbs_on_board": loop == "loop" ? set(&doc, ["loop", "cob"], "cob", v) : set(&doc, ["openaps", "suggested"], "COB", v)
            case "pump_reservoir": set(&doc, ["pump"], "reservoir", v)
            case "pump_battery": set(&doc, ["pump", "battery"], "percent", v)
            case "uploader_battery": set(&doc, ["uploader"], "battery", v)
            default: break
            }
            docs[key] = doc
        }
        return order.compactMap { key in docs[key].map { NightscoutDocumentRows(doc: $0, rows: made[key] ?? []) } }
    }

    private static func set(_ doc: inout [String: Any], _ path: [String], _ key: String, _ value: Double) {
        guard let first = path.first else {
            doc[key] = value
            return
        }
        var inner = doc[first] as? [String: Any] ?? [:]
        set(&inner, Array(path.dropFirst()), key, value)
        doc[first] = inner
    }
}

/// The stored profile (the newest a Nightscout upload or import carried) as Nightscout's profile
/// document: `defaultProfile`, `startDate`, `units`, and `store` holding that profile's settings.
enum NightscoutProfileDocument {
    static func document(_ attributes: String) -> [String: Any]? {
        guard var a = try? JSONSerialization.jsonObject(with: Data(attributes.utf8)) as? [String: Any] else { return nil }
        let name = a.removeValue(forKey: "default_profile") as? String ?? "Default"
        let start = a.removeValue(forKey: "start_date") as? String
        var doc: [String: Any] = ["defaultProfile": name, "store": [name: a]]
        if let units = a["units"] { doc["units"] = units }
        let seconds = start.flatMap { NightscoutInstantText.seconds($0) } ?? 0
        if start != nil {
            doc["startDate"] = NightscoutTime.iso(seconds)
            doc["created_at"] = doc["startDate"]
            doc["mills"] = seconds * 1000
        }
        doc["_id"] = NightscoutID.make("profile", name, seconds: seconds)
        return doc
    }
}
