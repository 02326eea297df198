import HealthPipeCore
import SQLiteStore

/// Nightscout's "BG now" (its `bgnow` plugin, `lib/plugins/bgnow.js`): the CGM readings of the last
/// 20 minutes in four 5-minute buckets ending 2.5 minutes after the newest reading, the newest
/// bucket's mean, and the delta to the bucket before it — what `/api/v2/properties` answers as
/// `bgnow`, `delta` and `buckets`, and `/pebble` as `bgdelta`. Values are mg/dL; `mmol` scales the
/// delta and each reading's `scaled` as Nightscout does for a site (or a request) in mmol/L.
struct NightscoutBGNow {
    static let bucketCount = 4
    static let bucketMillis: Int64 = 5 * 60_000
    static let offsetMillis: Int64 = 150_000
    /// The window to read: every bucket lies within it.
    static let windowSeconds: Int64 = (offsetMillis + Int64(bucketCount) * bucketMillis) / 1000 + 1

    struct Bucket {
        let index: Int
        let fromMills: Int64, toMills: Int64
        var sgvs: [NightscoutEntry] = []

        var isEmpty: Bool { sgvs.isEmpty }
        /// Readings above 39 mg/dL count; below it they are sensor errors (39 itself is neither, as in Nightscout).
        var valid: [NightscoutEntry] { sgvs.filter { $0.mgdl > 39 } }
        var errors: [NightscoutEntry] { sgvs.filter { $0.mgdl < 39 } }
        var mean: Double? {
            let v = valid
            return v.isEmpty ? nil : v.reduce(0) { $0 + $1.mgdl } / Double(v.count)
        }
        var mostRecent: NightscoutEntry? { valid.max { $0.row.start < $1.row.start } }
        var mills: Int64? { mostRecent.map { $0.row.start * 1000 } }
    }

    struct Delta {
        let recent: Bucket, previous: Bucket
        let absolute: Double, elapsedMins: Double, mean5MinsAgo: Double
        var interpolated: Bool { elapsedMins > 9 }
        /// JavaScript's Math.round (halves up).
        var mgdl: Int { Int((recent.meanValue - mean5MinsAgo + 0.5).rounded(.down)) }

        /// The delta in the unit asked for: whole mg/dL, or mmol/L to one decimal.
        func scaled(mmol: Bool) -> Double {
            guard mmol else { return Double(mgdl) }
            let d = NightscoutBGNow.mmol(recent.meanValue) - NightscoutBGNow.mmol(mean5MinsAgo)
            return (d * 10 + 0.5).rounded(.down) / 10
        }
    }

    let buckets: [Bucket]
    let mmol: Bool

    /// `entries`: the CGM readings (newest first) of the window before `nowMillis`; later ones are skipped.
    init(_ entries: [NightscoutEntry], nowMillis: Int64, mmol: Bool) {
        self.mmol = mmol
        let current = entries.filter { $0.row.start * 1000 <= nowMillis }
        guard let last = current.first else {
            buckets = []
            return
        }
        var buckets = (0..<Self.bucketCount).map { i in
            let from = last.row.start * 1000 - Self.offsetMillis - Int64(i) * Self.bucketMillis
            return Bucket(index: i, fromMills: from, toMills: from + Self.bucketMillis)
        }
        // Newest first, until the first reading that falls in no bucket.
        for e in current {
            let mills = e.row.start * 1000
            guard let i = buckets.firstIndex(where: { mills >= $0.fromMills && mills <= $0.toMills }) else { break }
            buckets[i].sgvs.append(e)
        }
        self.buckets = buckets
    }

    var recent: Bucket? { buckets.first { !$0.isEmpty } }

    var previous: Bucket? {
        guard let recentMills = recent?.mills else { return nil }
        return buckets.first { b in b.mills.map { $0 < recentMills } ?? false }
    }

    var delta: Delta? {
        guard let recent, let previous, let a = recent.mean, let b = previous.mean,
              let ra = recent.mills, let pa = previous.mills else { return nil }
        let absolute = a - b, elapsed = Double(ra - pa) / 60_000
        let five = elapsed > 9 ? a - absolute / elapsed * 5 : a - absolute
        return Delta(recent: recent, previous: previous, absolute: absolute, elapsedMins: elapsed, mean5MinsAgo: five)
    }

    /// Nightscout's mg/dL to mmol/L (`units.mgdlToMMOL`, 18.01559 mg/dL per mmol/L, one decimal).
    static func mmol(_ mgdl: Double) -> Double { ((mgdl / 18.01559) * 10 + 0.5).rounded(.down) / 10 }

    /// `mgdlToMMOL`'s text (`toFixed(1)`).
    static func mmolText(_ mgdl: Double) -> String { oneDecimal(mmol(mgdl)) }

    static func oneDecimal(_ v: Double) -> String {
        let tenths = Int64((abs(v) * 10).rounded())
        return (v < 0 && tenths != 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
    }

    // MARK: The properties' documents

    /// A reading as the bucket lists it (Nightscout's sandbox entry).
    func writeSGV(_ e: NightscoutEntry, _ w: inout JSONWriter) {
        w.beginObject()
        w.field("_id", e.id)
        w.key("mgdl"); w.int(e.value)
        w.field("mills", e.row.start * 1000)
        w.field("device", e.device)
        w.field("direction", ifPresent: e.direction)
        w.field("type", "sgv")
        if mmol { w.field("scaled", Self.mmolText(e.mgdl)) } else { w.key("scaled"); w.int(e.value) }
        w.endObject()
    }

    /// A bucket: `mean`, `last`, `mills`, `errors` when it has readings, then (with `withPlace`) `index`,
    /// `fromMills`, `toMills`, and `sgvs`, `isEmpty` when it has none.
    func writeBucket(_ b: Bucket, withPlace: Bool, _ w: inout JSONWriter) {
        w.beginObject()
        if let mean = b.mean { w.field("mean", mean) }
        if let last = b.mostRecent {
            w.key("last"); w.int(last.value)
            w.field("mills", last.row.start * 1000)
        }
        let errors = b.errors
        if !errors.isEmpty {
            w.key("errors"); w.beginArray()
            for e in errors { writeSGV(e, &w) }
            w.endArray()
        }
        if withPlace {
            w.field("index", b.index)
            w.field("fromMills", b.fromMills)
            w.field("toMills", b.toMills)
        }
        w.key("sgvs"); w.beginArray()
        for e in b.sgvs { writeSGV(e, &w) }
        w.endArray()
        if b.isEmpty { w.field("isEmpty", true) }
        w.endObject()
    }

    func writeDelta(_ d: Delta, _ w: inout JSONWriter) {
        let scaled = d.scaled(mmol: mmol)
        w.beginObject()
        w.field("absolute", d.absolute)
        w.field("elapsedMins", d.elapsedMins)
        w.field("interpolated", d.interpolated)
        w.field("mean5MinsAgo", d.mean5MinsAgo)
        w.key("times"); w.beginObject()
        w.field("recent", d.recent.mills ?? 0)
        w.field("previous", d.previous.mills ?? 0)
        w.endObject()
        w.field("mgdl", d.mgdl)
        w.field("scaled", scaled)
        w.field("display", (scaled >= 0 ? "+" : "") + Self.jsNumber(scaled))
        w.key("previous"); writeBucket(d.previous, withPlace: false, &w)
        w.endObject()
    }

    /// A number as JavaScript prints it (`1.5`, `3`).
    static func jsNumber(_ v: Double) -> String {
        var w = JSONWriter(capacity: 16)
        w.double(v)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

extension NightscoutBGNow.Bucket {
    /// The mean of a bucket the delta was computed from (it has one).
    var meanValue: Double { mean ?? .nan }
}

extension NightscoutBGNow {
    /// What Nightscout keeps in memory to answer from (its data loader): the last two days, none later than now.
    static let loadedSeconds: Int64 = 2 * 86_400

    /// The CGM readings (newest first) the buckets are made of: those within the window before the
    /// newest reading that is not later than `nowMillis`.
    static func window(_ rows: NightscoutRows, subject: String, nowMillis: Int64) throws -> [NightscoutEntry] {
        let end = nowMillis / 1000 + 1
        guard let last = try rows.readings(subject: subject, metric: "glucose", fromUTC: end - loadedSeconds, toUTC: end, limit: 1,
                                           origin: .notTreatment).first else { return [] }
        return try NightscoutEntryReads.entries(rows, subject: subject, type: "sgv", fromUTC: last.start - windowSeconds, toUTC: end,
                                                limit: NightscoutFind.maxCount)
    }
}
