import HealthPipeCore

/// Builds `DayView`s from readings and events that cover the days wanted (and three days either
/// side), whatever their source: the store through `ChartLoader`, or the `chart` sink's window.
public struct DayViewBuilder {
    public var subject: String
    public var bands: ChartBands
    public var settings: ViewSettings
    /// Days with readings, for the navigation's first/last.
    public var firstDay: Int64?
    public var lastDay: Int64?
    public var today: Int64

    public init(subject: String, bands: ChartBands, settings: ViewSettings, firstDay: Int64?, lastDay: Int64?, today: Int64) {
        self.subject = subject
        self.bands = bands
        self.settings = settings
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.today = today
    }

    /// `readingsByDay` maps each local day to its readings in time order; `events` are the day's;
    /// `basalRates` the subject's `basal_rate` readings from a day before it on (see `basalSegments`);
    /// `sides` the neighbouring days' numbers when the readings of those days were not read.
    /// `checks` are finger-stick checks (any days; the view keeps its own).
    public func build(day: Int64, readingsByDay: [Int64: [Measurement]], events: [Event], forecast: DayView.Forecast?,
                      basalRates: [Measurement] = [], sides: [Int64: DayView.SideDay]? = nil, checks: [Measurement] = []) -> DayView {
        let midnight = day * 86_400
        func point(_ m: Measurement) -> DayView.Point {
            DayView.Point(utc: m.start, offset: m.utcOffset, mgdl: m.value, flags: m.flags, source: m.source.text,
                          minute: Double(LocalDays.local(m.start, m.utcOffset) - midnight) / 60)
        }
        let points = (readingsByDay[day] ?? []).map(point)
        let dayChecks = checks.filter { LocalDays.day($0.start, $0.utcOffset) == day && $0.value.isFinite }.map(point)
        var markers: [DayView.Marker] = []
        var episodes: [DayView.Episode] = []
        var notes: [DayView.Note] = []
        let basal = Self.basalSegments(basalRates, day: day)
        // A basal delivery over a span whose rate is a step (Tidepool segments, Apple deliveries) is
        // drawn by that step, not again as a marker; basal injections (an instant) stay markers.
        let drawnBasal = Set(basal.map(\.utc))
        for e in events {
            let startDay = LocalDays.day(e.start, e.utcOffset)
            if e.kind == .episode {
                // An episode touches every day from its start to its end.
                guard startDay <= day, LocalDays.day(e.end, e.utcOffset) >= day else { continue }
                episodes.append(DayView.Episode(name: e.subtype.text.isEmpty ? "episode" : e.subtype.text, utc: e.start,
                                                endUTC: e.end, offset: e.utcOffset))
                continue
            }
            if e.kind == .note || e.kind == .alert || e.kind == .device {
                guard startDay == day else { continue }
                notes.append(DayView.Note(kind: e.kind, name: e.subtype.text, text: e.note ?? "", utc: e.start, offset: e.utcOffset,
                                          source: e.source.text))
                continue
            }
            if e.kind == .insulin, e.subtype == InsulinKinds.basal, e.end > e.start, drawnBasal.contains(e.start) { continue }
            guard startDay == day, let marker = Self.marker(e, midnight: midnight) else { continue }
            markers.append(marker)
        }
        // Same order whatever order the records came in (store or stream): time, then kind and amount.
        markers.sort { ($0.utc, $0.kind.rawValue, $0.insulinType, $0.insulin ?? $0.carbs ?? 0, $0.name)
            < ($1.utc, $1.kind.rawValue, $1.insulinType, $1.insulin ?? $1.carbs ?? 0, $1.name) }
        func side(_ d: Int64) -> DayView.SideDay {
            guard let sides else { return Self.side(day: d, readings: readingsByDay[d] ?? []) }
            return sides[d] ?? DayView.SideDay(day: d, count: 0, min: nil, mean: nil, max: nil)
        }
        return DayView(subject: subject, day: day, unit: settings.unit, bands: bands, showBasal: settings.showBasal,
                       points: points, checks: dayChecks, markers: markers,
                       notes: notes.sorted { ($0.utc, $0.name, $0.text) < ($1.utc, $1.name, $1.text) }, episodes: episodes, basal: basal, forecast: forecast.flatMap { Self.insideDay($0, midnight: midnight) },
                       previous: (1...3).reversed().map { side(day - Int64($0)) }, next: (1...3).map { side(day + Int64($0)) },
                       navigation: .init(previous: day - 1, next: day + 1, today: today, first: firstDay, last: lastDay))
    }

    /// The longest a scheduled rate is taken to hold without a next change.
    static let scheduledRateHolds: Int64 = 86_400

    /// The day's delivered basal from `basal_rate` readings (U/h, BasalRates, whichever source wrote
    /// them): a reading with a span is a rate over it (flagged `scheduledRate`: the schedule's; else
    /// temporary: temp basals, automated and suspended segments, deliveries over a span); a reading at
    /// an instant is a scheduled rate that holds until the next such change, at most a day; a
    /// temporary rate ends where the next begins. Scheduled steps come
    /// first, then the temporary spans drawn over them, each in time order.
    static func basalSegments(_ rates: [Measurement], day: Int64) -> [DayView.BasalSegment] {
        let midnight = day * 86_400
        var out: [DayView.BasalSegment] = []
        func add(_ m: Measurement, until end: Int64, temporary: Bool) {
            let from = Double(LocalDays.local(m.start, m.utcOffset) - midnight) / 60
            let to = Double(LocalDays.local(end, m.utcOffset) - midnight) / 60
            guard m.value.isFinite, m.value >= 0, to > 0, from < 1440, end > m.start else { return }
            out.append(DayView.BasalSegment(utc: m.start, endUTC: end, offset: m.utcOffset, rate: m.value, temporary: temporary,
                                            source: m.source.text, startMinute: max(from, 0), endMinute: min(to, 1440)))
        }
        let sorted = rates.sorted { $0.start < $1.start }
        let changes = sorted.filter { $0.end <= $0.start }
        for (i, m) in changes.enumerated() {
            let next = i + 1 < changes.count ? changes[i + 1].start : Int64.max
            add(m, until: min(next, m.start + scheduledRateHolds), temporary: false)
        }
        for m in sorted where m.end > m.start && m.flags.contains(.scheduledRate) { add(m, until: m.end, temporary: false) }
        // A new temporary rate replaces the running one (as a pump does): each ends at the next one's start.
        let temporary = sorted.filter { $0.end > $0.start && !$0.flags.contains(.scheduledRate) }
        for (i, m) in temporary.enumerated() {
            add(m, until: i + 1 < temporary.count ? min(m.end, max(temporary[i + 1].start, m.start + 1)) : m.end, temporary: true)
        }
        return out
    }

    /// The forecast as the day view draws it: only its points up to the day's 24:00 (none left: no
    /// forecast, the next day shows the glucose itself). Its points are the forecaster's, which
    /// `ForecastEnvelope` already keeps within what glucose can do from the last reading.
    static func insideDay(_ f: DayView.Forecast, midnight: Int64) -> DayView.Forecast? {
        var out = f
        out.points = f.points.filter { LocalDays.local($0.utc, f.offset) <= midnight + 86_400 }
        return out.points.isEmpty ? nil : out
    }

    static func side(day: Int64, readings: [Measurement]) -> DayView.SideDay {
        guard !readings.isEmpty else { return DayView.SideDay(day: day, count: 0, min: nil, mean: nil, max: nil) }
        var lo = Double.infinity, hi = -Double.infinity, sum = 0.0
        for r in readings { lo = min(lo, r.value); hi = max(hi, r.value); sum += r.value }
        return DayView.SideDay(day: day, count: readings.count, min: lo, mean: sum / Double(readings.count), max: hi)
    }

    static func marker(_ e: Event, midnight: Int64) -> DayView.Marker? {
        let kind: DayView.Marker.Kind
        var name = ""
        switch e.kind {
        case .meal:
            kind = .meal
            name = e.note ?? ""
        case .exercise:
            kind = .exercise
            name = exerciseName(e.subtype.text)
        case .insulin:
            kind = .insulin
        default:
            return nil
        }
        return DayView.Marker(kind: kind, name: name, utc: e.start, endUTC: e.end, offset: e.utcOffset,
                              minute: Double(LocalDays.local(e.start, e.utcOffset) - midnight) / 60, carbs: e.carbs,
                              protein: e.protein, fat: e.fat, insulin: e.insulin,
                              insulinType: e.kind == .insulin ? e.subtype.text : "", intensity: e.intensity.text,
                              source: e.source.text)
    }

    /// "HKWorkoutActivityTypeHighIntensityIntervalTraining" → "High Intensity Interval Training"; "running" → "Running".
    static func exerciseName(_ subtype: String) -> String {
        var s = Substring(subtype)
        if s.hasPrefix("HKWorkoutActivityType") { s = s.dropFirst("HKWorkoutActivityType".count) }
        guard let first = s.first else { return "" }
        var out = String(first).uppercased()
        var previous = first
        for c in s.dropFirst() {
            if c == "_" || c == "-" { out.append(" "); previous = " "; continue }
            if c.isUppercase && previous.isLowercase { out.append(" ") }
            out.append(previous == " " ? Character(c.uppercased()) : c)
            previous = c
        }
        return out
    }
}
