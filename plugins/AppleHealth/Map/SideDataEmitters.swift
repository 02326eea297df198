import HealthPipeCore

/// What the export's side data needs while the XML streams past: the beat-to-beat list of the
/// current heart-rate-variability record, the current workout's inline route points, and which
/// workout each route file (`FileReference`) belongs to, for the side files read after the XML.
struct SideData {
    struct Beat {
        var text: String
        var bpm: Double
    }
    /// Beats of the record on `beatsLine` (`InstantaneousBeatsPerMinute`: time of day, bpm).
    var beats: [Beat] = []
    var beatsLine: Int64 = -1
    /// Route file path (as the FileReference writes it) → the workout that names it.
    var routeLinks: [String: RouteLink] = [:]

    struct RouteLink {
        var workoutStart: Int64
        var source: Symbol
        var offset: Int32
        var device: Symbol
    }

    func hasBeats(line: Int64) -> Bool { beatsLine == line && !beats.isEmpty }
}

extension ExportHandler {
    /// `<InstantaneousBeatsPerMinute bpm="62" time="7:46:04.05 PM"/>` inside a HRV record's list.
    func heartbeat(_ a: Attributes) {
        if side.beatsLine != draft.line {
            side.beats.removeAll(keepingCapacity: true)
            side.beatsLine = draft.line
        }
        var bpm: Double?, time = ""
        for i in 0..<a.count {
            if named(a.name(i), "bpm") { bpm = a.number(i) } else if named(a.name(i), "time") { time = a.string(i) }
        }
        guard let bpm, !time.isEmpty else { return }
        side.beats.append(.init(text: time, bpm: bpm))
    }

    /// The record's beats for its metadata: `"beats":[{"t_ms":…,"bpm":62},…]`. A beat's time is a
    /// local time of day (`7:46:04.05 PM` or `19:46:04.05`); it is placed on the record's own day,
    /// the day before or after, whichever is nearest to the record's start.
    func beatsJSON(_ start: HealthDate.Parsed) -> (inout JSONWriter) -> Void {
        let beats = side.beats
        return { w in
            w.key("beats")
            w.beginArray()
            for b in beats {
                w.beginObject()
                if let ms = Self.beatTime(b.text, near: start) { w.key("t_ms"); w.int(ms) } else { w.key("time"); w.string(b.text) }
                w.key("bpm"); w.double(b.bpm)
                w.endObject()
            }
            w.endArray()
        }
    }

    /// UTC milliseconds of a local time of day, on the day nearest to `near`.
    static func beatTime(_ text: String, near: HealthDate.Parsed) -> Int64? {
        guard let ofDay = BeatClock.milliseconds(text) else { return nil }
        let localDay = LocalDays.day(near.utc, near.offset)
        let nearMs = near.utc * 1000
        var best: Int64? = nil
        for d in (localDay - 1)...(localDay + 1) {
            let utc = d * 86_400_000 + ofDay - Int64(near.offset) * 1000
            if best == nil || abs(utc - nearMs) < abs(best! - nearMs) { best = utc }
        }
        return best
    }

    /// `<Location date="…" latitude="…" longitude="…" altitude="…" …/>` inside a Workout's WorkoutRoute.
    func routeLocation(_ a: Attributes) {
        var p = WorkoutRoute.Point(time: 0, latitude: .nan, longitude: .nan)
        var dated = false
        for i in 0..<a.count {
            let n = a.name(i)
            if named(n, "date") { if let d = a.date(i) { p.time = d.utc * 1000; dated = true } }
            else if named(n, "latitude") { p.latitude = a.number(i) ?? .nan }
            else if named(n, "longitude") { p.longitude = a.number(i) ?? .nan }
            else if named(n, "altitude") { p.elevation = a.number(i) }
            else if named(n, "speed") { p.speed = a.number(i).flatMap { $0 < 0 ? nil : $0 } }
            else if named(n, "course") { p.course = a.number(i).flatMap { $0 < 0 ? nil : $0 } }
            else if named(n, "horizontalAccuracy") { p.horizontalAccuracy = a.number(i) }
            else if named(n, "verticalAccuracy") { p.verticalAccuracy = a.number(i) }
        }
        guard dated, RouteRanges.valid(p) else {
            reject(child: "Location", a, "workout route Location without a date or with an impossible position", slot: ElementTypes.routeLocation)
            return
        }
        workout.locations.append(p)
    }

    /// After a workout: its inline route as a route record, and its route files remembered.
    func finishRoutes(workoutStart: Int64, offset: Int32) {
        for path in workout.routes {
            side.routeLinks[path] = .init(workoutStart: workoutStart, source: draft.source, offset: offset, device: deviceSymbol)
        }
        guard !workout.locations.isEmpty, options.types.includes(identifier: "HKWorkoutRouteTypeIdentifier", name: "workout_route")
        else { return }
        let points = workout.locations
        add(WorkoutRoute(subject: options.subject, source: draft.source, workoutStart: workoutStart,
                         start: CivilDate.floorDiv(points.map(\.time).min()!, 1000),
                         end: CivilDate.floorDiv(points.map(\.time).max()!, 1000), utcOffset: offset, name: "inline",
                         points: points, device: deviceSymbol, provenance: Provenance(file: file, line: draft.line)))
    }
}

/// Plausible route points (one small check until HealthPipeCore/Units has the shared ranges).
enum RouteRanges {
    static func valid(_ p: WorkoutRoute.Point) -> Bool {
        (-90...90).contains(p.latitude) && (-180...180).contains(p.longitude)
            && (p.elevation.map { (-500...9_000).contains($0) } ?? true)
    }
}
