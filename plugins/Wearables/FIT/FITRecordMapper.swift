import Foundation
import HealthPipeCore
import JSONFormats

/// Turns decoded FIT messages into records:
/// - `session` → an exercise event (sport, start, elapsed time; timer time, distance, energy, average
///   and maximum heart rate in its metadata),
/// - `record` → time series (heart_rate, speed, cadence, power, altitude) and the route's points,
/// - `monitoring` → heart_rate and step_count per interval: `cycles` is a running total per activity
///   type (the SDK's MonitoringReader rule), so an interval's steps are the rise of its type's total
///   since that type's last message, counted from 0 at each FIT file's start and at each local
///   midnight; a total lower than the last one is a reset and counts whole. A summary message (with
///   `duration_min`) is skipped: it restates the intervals' totals.
/// A message of another type is counted as skipped under its name. Reading allocates nothing per message.
struct FITRecordMapper {
    struct Reject: Error { var reason: String }

    let subject: Symbol
    let file: Symbol
    private var zone: ZoneOffsets?
    private var fileOffset: Int32?
    private(set) var source = Symbol("FIT")

    // The current FIT file's route and sessions (few), and the monitoring totals per activity type.
    private var route: [WorkoutRoute.Point] = []
    private var routeOffset: Int64 = 0
    private var sessionStarts: [Int64] = []
    private var totals = [Double?](repeating: nil, count: 256)
    private var lastMonitoring: Int64?
    private var monitoringDay: Int64?
    private var monitoringStart: Int64?

    init(subject: Symbol, file: Symbol, zone: TimeZone?) {
        self.subject = subject
        self.file = file
        self.zone = zone.map { ZoneOffsets(zone: $0) }
    }

    enum Names {
        static let heartRate = Metrics.heartRate, stepCount = Symbol("step_count"), speed = Symbol("speed")
        static let cadence = Symbol("cadence"), power = Symbol("power"), altitude = Symbol("altitude")
        static let perMinute = Symbol("count/min"), count = Symbol("count"), metresPerSecond = Symbol("m/s")
        static let watts = Symbol("W"), metres = Symbol("m")
        /// The activity type of a monitoring interval's steps, kept as the measurement's metadata (one string per type).
        static let stepsMetadata: [UInt8: String] = [1: #"{"activity_type":"running"}"#, 6: #"{"activity_type":"walking"}"#]
    }

    /// A new FIT file of the input begins: its own offset (from the first pass), nothing carried over.
    mutating func begin(offset: Int32?) {
        fileOffset = offset
        source = Symbol("FIT")
        route.removeAll(keepingCapacity: true)
        sessionStarts.removeAll()
        for i in totals.indices { totals[i] = nil }
        lastMonitoring = nil
        monitoringDay = nil
        monitoringStart = nil
    }

    /// True when neither --timezone nor the file gives the wearer's offset (times are placed at UTC).
    var lacksOffset: Bool { zone == nil && fileOffset == nil }

    private mutating func offset(_ utc: Int64) -> Int32 { zone?.offset(atUTC: utc) ?? fileOffset ?? 0 }

    /// Records of one message; returns true when it made any.
    mutating func map(_ m: FITMessage, into out: inout RecordBatcher) throws -> Bool {
        switch m.global {
        case FITProfile.Message.fileID:
            source = Symbol(FITProfile.manufacturer(m.value(1)))
            return false
        case FITProfile.Message.record: return try record(m, into: &out)
        case FITProfile.Message.session: return try session(m, into: &out)
        case FITProfile.Message.monitoring: return try monitoring(m, into: &out)
        case FITProfile.Message.monitoringInfo:
            if let t = m.time, FITTime.isDate(t) { monitoringStart = t }
            return false
        default: return false
        }
    }

    private func dated(_ m: FITMessage, _ time: Int64?) throws -> Int64 {
        guard let time else { throw Reject(reason: "\(FITProfile.messageName(m.global)) message without a timestamp") }
        guard FITTime.isDate(time) else {
            throw Reject(reason: "\(FITProfile.messageName(m.global)) message timed by the device's uptime (\(time - FITTime.offset) s), not a date")
        }
        return time
    }

    private mutating func record(_ m: FITMessage, into out: inout RecordBatcher) throws -> Bool {
        typealias R = FITProfile.Record
        let hr = m.value(R.heartRate), cadence = m.value(R.cadence), power = m.value(R.power)
        let speed = m.value(R.enhancedSpeed, scale: 1000) ?? m.value(R.speed, scale: 1000)
        let altitude = m.value(R.enhancedAltitude, scale: 5, offset: 500) ?? m.value(R.altitude, scale: 5, offset: 500)
        let lat = m.value(R.latitude).map { $0 * FITProfile.semicircleDegrees }
        let lon = m.value(R.longitude).map { $0 * FITProfile.semicircleDegrees }
        guard hr != nil || cadence != nil || power != nil || speed != nil || altitude != nil || lat != nil else { return false }
        let t = try dated(m, m.time)
        if let hr, let why = Plausibility.problem(metric: Names.heartRate, value: hr, unit: Names.perMinute) { throw Reject(reason: why) }
        let o = offset(t), prov = Provenance(file: file, line: m.offset)
        func add(_ metric: Symbol, _ v: Double?, _ unit: Symbol) {
            guard let v else { return }
            out.add(Measurement(subject: subject, metric: metric, source: source, start: t, utcOffset: o, value: v, unit: unit, provenance: prov))
        }
        add(Names.heartRate, hr, Names.perMinute)
        add(Names.speed, speed, Names.metresPerSecond)
        add(Names.cadence, cadence, Names.perMinute)
        add(Names.power, power, Names.watts)
        add(Names.altitude, altitude, Names.metres)
        if let lat, let lon, (-90...90).contains(lat), (-180...180).contains(lon) {
            if route.isEmpty { routeOffset = m.offset }
            route.append(WorkoutRoute.Point(time: t * 1000, latitude: lat, longitude: lon, elevation: altitude, speed: speed))
        }
        return true
    }

    private mutating func session(_ m: FITMessage, into out: inout RecordBatcher) throws -> Bool {
        typealias S = FITProfile.Session
        let start = try dated(m, m.time(S.startTime) ?? m.time)
        let elapsed = m.value(S.elapsed, scale: 1000) ?? m.value(S.timer, scale: 1000) ?? 0
        guard elapsed >= 0, elapsed < 30 * 86_400 else { throw Reject(reason: "a session lasting \(elapsed) s") }
        let sport = FITProfile.sport(m.value(S.sport))
        var json = JSONWriter(capacity: 192)
        json.beginObject()
        json.field("sport", sport)
        if let sub = m.value(S.subSport) { json.field("sub_sport", sub) }
        json.field("elapsed_min", elapsed / 60)
        if let timer = m.value(S.timer, scale: 1000) { json.field("duration_min", timer / 60) }
        if let d = m.value(S.distance, scale: 100) { json.field("distance_km", d / 1000) }
        if let e = m.value(S.calories) { json.field("energy_kcal", e) }
        if let hr = m.value(S.avgHeartRate) { json.field("avg_heart_rate", hr) }
        if let hr = m.value(S.maxHeartRate) { json.field("max_heart_rate", hr) }
        if let laps = m.value(S.numLaps) { json.field("laps", laps) }
        json.endObject()
        sessionStarts.append(start)
        out.add(Event(subject: subject, kind: .exercise, subtype: Symbol(sport), source: source, start: start,
                      end: start + Int64(elapsed.rounded()), utcOffset: offset(start), provenance: Provenance(file: file, line: m.offset),
                      metadata: String(decoding: json.bytes, as: UTF8.self)))
        return true
    }

    private mutating func monitoring(_ m: FITMessage, into out: inout RecordBatcher) throws -> Bool {
        typealias F = FITProfile.Monitoring
        // A summary restates the totals of the intervals before it: counting it would count them twice.
        if m.definition.has(F.durationMinutes) { return false }
        guard let t = m.time ?? m.time16(F.timestamp16) else { _ = try dated(m, nil); return false }
        _ = try dated(m, t)
        let o = offset(t), prov = Provenance(file: file, line: m.offset)
        let previous = lastMonitoring ?? monitoringStart
        lastMonitoring = t
        let day = LocalDays.day(t, o)
        if let d = monitoringDay, d != day { for i in totals.indices { totals[i] = nil } }
        monitoringDay = day
        var made = false
        if let hr = m.value(F.heartRate) {
            if let why = Plausibility.problem(metric: Names.heartRate, value: hr, unit: Names.perMinute) { throw Reject(reason: why) }
            out.add(Measurement(subject: subject, metric: Names.heartRate, source: source, start: t, utcOffset: o, value: hr,
                                unit: Names.perMinute, provenance: prov))
            made = true
        }
        let type = m.value(F.activityType).map { UInt8($0) } ?? m.byte(F.typeAndIntensity).map { $0 & 0x1F }
        if let type, let total = m.value(F.cycles), let metadata = Names.stepsMetadata[type] {
            let last = totals[Int(type)] ?? 0
            let steps = total >= last ? total - last : total
            totals[Int(type)] = total
            if steps > 0 {
                let start = min(previous ?? t, t)
                out.add(Measurement(subject: subject, metric: Names.stepCount, source: source, start: start, end: t, utcOffset: o,
                                    value: steps, unit: Names.count, provenance: prov, metadata: metadata))
                made = true
            }
        }
        return made
    }

    /// At the end of a FIT file: its route, tied to the session it starts in (or the first).
    mutating func finish(into out: inout RecordBatcher) {
        guard let first = route.first, let last = route.last else { return }
        let start = first.time / 1000
        let workout = sessionStarts.last { $0 <= start } ?? sessionStarts.first
        out.add(WorkoutRoute(subject: subject, source: source, workoutStart: workout, start: start, end: last.time / 1000,
                                  utcOffset: offset(start), name: "fit", points: route, provenance: Provenance(file: file, line: routeOffset)))
        route.removeAll(keepingCapacity: true)
    }
}
