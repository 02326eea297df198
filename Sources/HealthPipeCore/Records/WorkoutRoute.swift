/// A workout's route: the points a phone or watch recorded during one exercise event, with time,
/// position and elevation (Apple Health GPX files and inline `Location` elements).
public struct WorkoutRoute: Hashable, Sendable {
    public struct Point: Hashable, Sendable {
        /// UTC epoch milliseconds.
        public var time: Int64
        public var latitude: Double
        public var longitude: Double
        /// Metres above sea level.
        public var elevation: Double?
        /// Metres per second.
        public var speed: Double?
        /// Degrees from north.
        public var course: Double?
        /// Metres.
        public var horizontalAccuracy: Double?
        public var verticalAccuracy: Double?

        public init(time: Int64, latitude: Double, longitude: Double, elevation: Double? = nil, speed: Double? = nil,
                    course: Double? = nil, horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil) {
            self.time = time
            self.latitude = latitude
            self.longitude = longitude
            self.elevation = elevation
            self.speed = speed
            self.course = course
            self.horizontalAccuracy = horizontalAccuracy
            self.verticalAccuracy = verticalAccuracy
        }
    }

    public var subject: Symbol
    public var source: Symbol
    /// Start (UTC epoch seconds) of the exercise event the route belongs to; nil when no workout claims it.
    public var workoutStart: Int64?
    /// First and last point, UTC epoch seconds.
    public var start: Int64
    public var end: Int64
    public var utcOffset: Int32
    /// Where the points came from: the GPX file's path in the export, or `inline`.
    public var name: String
    public var points: [Point]
    public var device: Symbol
    public var provenance: Provenance

    public init(subject: Symbol, source: Symbol, workoutStart: Int64?, start: Int64, end: Int64, utcOffset: Int32,
                name: String, points: [Point], device: Symbol = .empty, provenance: Provenance = .none) {
        self.subject = subject
        self.source = source
        self.workoutStart = workoutStart
        self.start = start
        self.end = end
        self.utcOffset = utcOffset
        self.name = name
        self.points = points
        self.device = device
        self.provenance = provenance
    }
}
