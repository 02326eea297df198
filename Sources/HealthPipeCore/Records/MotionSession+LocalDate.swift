/// A motion session's local date fields, as the seed stores them beside each session (both stores
/// keep them as columns of `motion_sessions`).
extension MotionSession {
    public struct LocalDate: Hashable, Sendable {
        public var year: Int, month: Int, day: Int
        /// HH:MM:SS, local.
        public var time: String
        /// 1 = Monday … 7 = Sunday (ISO 8601).
        public var dayOfWeek: Int
        public var daysInMonth: Int
    }

    /// UTC epoch seconds of the first and last sample.
    public var startSeconds: Int64 { CivilDate.floorDiv(start, 1000) }
    public var endSeconds: Int64 { CivilDate.floorDiv(end, 1000) }

    /// The first sample's local date and time, by the session's UTC offset.
    public var localStart: LocalDate {
        let local = startSeconds + Int64(utcOffset)
        let dayNumber = CivilDate.floorDiv(local, 86_400)
        let (y, m, d) = CivilDate.date(fromDays: dayNumber)
        let clock = CivilDate.isoDateTime(seconds: local).split(separator: "T").last.map(String.init) ?? ""
        let weekday = Int(((dayNumber + 3) % 7 + 7) % 7 + 1)
        return LocalDate(year: y, month: m, day: d, time: clock, dayOfWeek: weekday, daysInMonth: CivilDate.daysInMonth(year: y, month: m))
    }
}
