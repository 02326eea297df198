import HealthPipeCore

/// The seeds' bifocal display for one subject and local day (seeds 000/001): the glucose series on
/// the 0–20 mmol/L axis over the bands, the day's meals, exercise and insulin with their details,
/// the 30-minute forecast from the day's last reading, and the side views of the three days before
/// and after (min, mean, max on the same bands). All values are mg/dL; `unit` says how to show them.
public struct DayView: Sendable {
    public struct Point: Sendable {
        public var utc: Int64
        public var offset: Int32
        public var mgdl: Double
        public var flags: RecordFlags
        public var source: String
        /// Minutes since local midnight of the view's day.
        public var minute: Double
    }

    public struct Marker: Sendable {
        public enum Kind: String, Sendable { case meal, exercise, insulin }
        public var kind: Kind
        /// Meal or exercise name ("Breakfast", "Running"); "" when the source gave none.
        public var name: String
        public var utc: Int64
        public var endUTC: Int64
        public var offset: Int32
        public var minute: Double
        public var carbs: Double?
        public var protein: Double?
        public var fat: Double?
        public var insulin: Double?
        /// `bolus`, `basal` or "" for insulin.
        public var insulinType: String
        /// `light`, `medium`, `heavy` for exercise, else "".
        public var intensity: String
        public var source: String

        /// Scheduled and temporary basal alike: the basal switch hides both.
        public var isBasal: Bool { kind == .insulin && (insulinType == "basal" || insulinType == "temp_basal") }
        /// A micro-bolus (< 1 U, e.g. an AID system's SMB): drawn per hour when there are several.
        public var isMicroBolus: Bool { kind == .insulin && !isBasal && (insulin ?? 0) < 1 }
        public var durationMinutes: Double { Double(max(0, endUTC - utc)) / 60 }
        public var clock: String { Fmt.clock(localSeconds: LocalDays.local(utc, offset)) }
    }

    /// Min, mean and max of one neighbouring day (nil values: no readings that day).
    public struct SideDay: Sendable {
        public var day: Int64
        public var count: Int
        public var min: Double?
        public var mean: Double?
        public var max: Double?

        public init(day: Int64, count: Int, min: Double?, mean: Double?, max: Double?) {
            self.day = day
            self.count = count
            self.min = min
            self.mean = mean
            self.max = max
        }
    }

    public struct Forecast: Sendable {
        public var model: String
        public var issuedAt: Int64
        public var offset: Int32
        /// Value at `issuedAt` (the last reading), then one point per 5 minutes.
        public var origin: Double
        public var points: [(utc: Int64, mgdl: Double)]
    }

    /// Delivered basal over a span of the day (U/h): a pump's scheduled rate until its next change,
    /// or a temporary rate (an AID system's temp basal, a suspend at 0 U/h) over its duration.
    public struct BasalSegment: Sendable {
        public var utc: Int64
        public var endUTC: Int64
        public var offset: Int32
        public var rate: Double
        /// A temporary rate (its own duration) drawn over the scheduled steps.
        public var temporary: Bool
        public var source: String
        /// Minutes since the view's midnight, clipped to the day.
        public var startMinute: Double
        public var endMinute: Double

        public var minutes: Double { Double(max(0, endUTC - utc)) / 60 }
        /// "Temp basal 0.8 U/h 04:50–05:20 (30min)".
        public var detail: String {
            var m = Markup(capacity: 64)
            writeDetail(&m)
            return m.text
        }

        /// "Temp basal 0.85 U/h 14:05–14:35 (30min)" (tooltip text: numbers and words only, nothing to escape).
        public func writeDetail(_ m: inout Markup) {
            if rate == 0 {
                m.raw("Basal suspended (0 U/h)" as StaticString)
            } else {
                m.raw(temporary ? "Temp basal " as StaticString : "Basal ")
                m.raw(Fmt.amount(rate, 2))
                m.raw(" U/h" as StaticString)
            }
            m.raw(" " as StaticString)
            m.clock(localSeconds: LocalDays.local(utc, offset))
            m.raw("–" as StaticString)
            m.clock(localSeconds: LocalDays.local(endUTC, offset))
            m.raw(" (" as StaticString)
            m.raw(Fmt.duration(minutes: minutes))
            m.raw(")" as StaticString)
        }
    }

    /// What else a device or a person wrote that day: a note, a pump or sensor alarm, a device
    /// event (suspend, resume, rewind, site or sensor change) — listed, not drawn.
    public struct Note: Sendable {
        public var kind: Event.Kind
        /// The alarm's or device event's name ("Suspended", "rewind"); "" for a note.
        public var name: String
        public var text: String
        public var utc: Int64
        public var offset: Int32
        public var source: String
        public var clock: String { Fmt.clock(localSeconds: LocalDays.local(utc, offset)) }
    }

    /// An illness or stress episode touching the day.
    public struct Episode: Sendable {
        public var name: String
        public var utc: Int64
        public var endUTC: Int64
        public var offset: Int32
    }

    public var subject: String
    public var day: Int64
    public var unit: DisplayUnit
    public var bands: ChartBands
    public var showBasal: Bool
    public var points: [Point]
    /// The day's finger-stick checks (a meter's readings, the BGs a pump was given), drawn apart
    /// from the CGM series: a meter user's whole glucose day, a CGM user's calibrations and confirmations.
    public var checks: [Point] = []
    public var markers: [Marker]
    /// The day's notes, alarms and device events, in time order.
    public var notes: [Note] = []
    public var episodes: [Episode]
    /// Delivered basal rates touching the day, in time order (scheduled steps, then temporary spans).
    public var basal: [BasalSegment] = []
    public var forecast: Forecast?
    /// The three days before (oldest first) and the three after.
    public var previous: [SideDay]
    public var next: [SideDay]
    public var navigation: Navigation

    public struct Navigation: Sendable {
        public var previous: Int64
        public var next: Int64
        /// Today's local date (in the zone of the latest reading) and the first and last days with readings.
        public var today: Int64
        public var first: Int64?
        public var last: Int64?
    }

    /// Local seconds of the view's midnight.
    public var midnight: Int64 { day * 86_400 }

    /// Markers the view shows (basal insulin hidden when the setting says so).
    public var visibleMarkers: [Marker] { showBasal ? markers : markers.filter { !$0.isBasal } }

    /// The CGM readings' numbers.
    public var stats: (count: Int, min: Double?, mean: Double?, max: Double?) { Self.stats(points) }

    /// The checks' numbers (what a meter user's day shows).
    public var checkStats: (count: Int, min: Double?, mean: Double?, max: Double?) { Self.stats(checks) }

    static func stats(_ points: [Point]) -> (count: Int, min: Double?, mean: Double?, max: Double?) {
        guard !points.isEmpty else { return (0, nil, nil, nil) }
        var lo = Double.infinity, hi = -Double.infinity, sum = 0.0
        for p in points { lo = Swift.min(lo, p.mgdl); hi = Swift.max(hi, p.mgdl); sum += p.mgdl }
        return (points.count, lo, sum / Double(points.count), hi)
    }
}
