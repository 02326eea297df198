import HealthPipeAnalytics
import HealthPipeCore

/// What "now" is for a person at a glance (the app's Now screen, issue 38 item 4): the latest
/// reading with its age, trend arrow and change, whether it is current at all (older than 15
/// minutes it is not, and is never shown as if it were), time in range today, the last dose and
/// meal, and the alarms of the last hours. Built from the day views of the days around now, so its
/// numbers are the day screen's.
public struct NowView: Sendable {
    /// A reading older than this is no current value (Nightscout and Clarity warn at 15 minutes too).
    public static let staleAfter: Int64 = 15 * 60
    /// Alarms and device events of this long before now are "recent".
    public static let recentAlarms: Int64 = 3 * 3600

    public struct Reading: Sendable {
        public var utc: Int64
        public var offset: Int32
        public var mgdl: Double
        /// A finger-stick check (a meter user's latest value), not a CGM reading.
        public var isCheck: Bool
        public var source: String
        public var clock: String { Fmt.clock(localSeconds: LocalDays.local(utc, offset)) }
    }

    /// How the value moves, from the change per minute (mg/dL), as Dexcom and Nightscout draw it.
    public struct Trend: Sendable, Equatable {
        public var arrow: String
        public var words: String

        static func of(perMinute rate: Double) -> Trend {
            switch rate {
            case 3...: return Trend(arrow: "⇈", words: "rising quickly")
            case 2..<3: return Trend(arrow: "↑", words: "rising")
            case 1..<2: return Trend(arrow: "↗", words: "rising slowly")
            case -1..<1: return Trend(arrow: "→", words: "steady")
            case -2 ..< -1: return Trend(arrow: "↘", words: "falling slowly")
            case -3 ..< -2: return Trend(arrow: "↓", words: "falling")
            default: return Trend(arrow: "⇊", words: "falling quickly")
            }
        }
    }

    public var unit: DisplayUnit
    public var bands: ChartBands
    public var now: Int64
    public var latest: Reading?
    /// The CGM reading 3–15 minutes before the latest, which the change is measured from.
    public var previous: Reading?
    /// Today's CGM readings (else BG checks) and how many of them lie in the target band.
    public var today: (inRange: Int, count: Int, checks: Bool)
    public var lastDose: DayView.Marker?
    public var lastMeal: DayView.Marker?
    /// Alarms and device events of the last `recentAlarms` seconds, newest first.
    public var alarms: [DayView.Note]

    /// `days`: the day views around now (any order); `today`: the person's today.
    public init(days: [DayView], today: Int64, now: Int64) {
        let sorted = days.sorted { $0.day < $1.day }
        unit = sorted.last?.unit ?? .mmolL
        let bands = sorted.last?.bands ?? ChartBands(scheme: .seeds)
        self.bands = bands
        self.now = now
        let cgm = sorted.flatMap(\.points).filter { $0.utc <= now + 300 }.sorted { $0.utc < $1.utc }
        let checks = sorted.flatMap(\.checks).filter { $0.utc <= now + 300 }.sorted { $0.utc < $1.utc }
        func reading(_ p: DayView.Point, check: Bool) -> Reading {
            Reading(utc: p.utc, offset: p.offset, mgdl: p.mgdl, isCheck: check, source: p.source)
        }
        // The newest value, CGM or check; the change only between CGM readings.
        let lastCGM = cgm.last, lastCheck = checks.last
        if let c = lastCheck, c.utc > (lastCGM?.utc ?? .min) { latest = reading(c, check: true) } else { latest = lastCGM.map { reading($0, check: false) } }
        if let l = lastCGM, latest?.isCheck == false {
            previous = cgm.last { $0.utc <= l.utc - 180 && $0.utc >= l.utc - 900 }.map { reading($0, check: false) }
        }
        let todays = sorted.first { $0.day == today }
        let values = (todays?.points.isEmpty == false ? todays?.points : todays?.checks) ?? []
        let inRange = values.filter { p in bands.bands[bands.index(of: p.mgdl)].level == 0 }.count
        self.today = (inRange, values.count, todays?.points.isEmpty != false && !values.isEmpty)
        let markers = sorted.flatMap(\.markers).filter { $0.utc <= now }.sorted { $0.utc < $1.utc }
        lastDose = markers.last { $0.kind == .insulin && !$0.isBasal }
        lastMeal = markers.last { $0.kind == .meal }
        alarms = sorted.flatMap(\.notes).filter { ($0.kind == .alert || $0.kind == .device) && $0.utc <= now && $0.utc > now - Self.recentAlarms }
            .sorted { $0.utc > $1.utc }
    }

    /// Seconds since the latest reading (0 for one stamped a little ahead of this clock).
    public var age: Int64? { latest.map { max(0, now - $0.utc) } }
    public var isStale: Bool { (age ?? .max) > Self.staleAfter }

    /// The change over 5 minutes (mg/dL), from the previous CGM reading; nil when stale or unknown.
    public var delta: Double? {
        guard !isStale, let l = latest, let p = previous, l.utc > p.utc else { return nil }
        return (l.mgdl - p.mgdl) * 300 / Double(l.utc - p.utc)
    }

    public var trend: Trend? { delta.map { Trend.of(perMinute: $0 / 5) } }

    /// "+0.4 mmol/L", "−12 mg/dL" (per 5 minutes).
    public var deltaText: String? {
        delta.map { d in
            let v = unit.value(abs(d)), text = Fmt.fixed(v, unit == .mgdL ? 0 : 1)
            return (Double(text) == 0 ? "±" : d > 0 ? "+" : "−") + text + " " + unit.rawValue
        }
    }

    /// The latest value's band ("Low", "In range", "Very high").
    public var band: ChartBands.Band? { latest.map { bands.bands[bands.index(of: $0.mgdl)] } }

    /// "just now", "12 min ago", "3 h 5 min ago", "2 days ago".
    public static func ageText(seconds: Int64) -> String {
        let minutes = seconds / 60
        if minutes < 1 { return "just now" }
        if minutes < 60 { return "\(minutes) min ago" }
        if minutes < 48 * 60 { return "\(minutes / 60) h" + (minutes % 60 == 0 ? "" : " \(minutes % 60) min") + " ago" }
        return "\(minutes / 1440) days ago"
    }
}
