/// One accelerometer reading from a motion stream (serial IMU, BLE bridge, replayed capture).
/// Acceleration is always in g (1 g = 9.80665 m/s²), the gyroscope in °/s.
public struct MotionSample: Hashable, Sendable {
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Not a reading: the stream broke here (device vanished, EOF, EIO). `t` is the time of the
        /// break and the axes are 0. Session detectors close the open session on it; sinks skip it.
        public static let streamBreak = Flags(rawValue: 1 << 0)
        /// The time was derived from the sample rate, not read from the stream.
        public static let derivedTime = Flags(rawValue: 1 << 1)
        /// Not a reading: a live device sent nothing for a while (IMU_Capture prints only while
        /// moving). `t` is the last reading's time plus the silence. Detectors end the open
        /// session as idle; sinks skip it.
        public static let silence = Flags(rawValue: 1 << 2)
    }

    public var device: Symbol
    /// UTC epoch milliseconds.
    public var t: Int64
    public var ax: Float
    public var ay: Float
    public var az: Float
    /// Gyroscope (°/s) when the stream has it.
    public var gyro: SIMD3<Float>?
    public var flags: Flags
    public var provenance: Provenance

    public init(device: Symbol, t: Int64, ax: Float, ay: Float, az: Float, gyro: SIMD3<Float>? = nil,
                flags: Flags = [], provenance: Provenance = .none) {
        self.device = device
        self.t = t
        self.ax = ax
        self.ay = ay
        self.az = az
        self.gyro = gyro
        self.flags = flags
        self.provenance = provenance
    }

    /// A marker for a broken stream at `t`.
    public static func streamBreak(device: Symbol, t: Int64) -> MotionSample {
        MotionSample(device: device, t: t, ax: 0, ay: 0, az: 0, flags: .streamBreak)
    }

    public var isBreak: Bool { flags.contains(.streamBreak) }
    /// A marker (stream break or silence), not a reading.
    public var isMarker: Bool { !flags.isDisjoint(with: [.streamBreak, .silence]) }
}

/// A live update while a session runs: drives the accomplishment bar. Not stored.
public struct SessionProgress: Hashable, Sendable {
    public var subject: Symbol
    public var device: Symbol
    /// Session start and the time of this update, UTC epoch milliseconds.
    public var sessionStart: Int64
    public var t: Int64
    /// 0–100 toward the configured goal.
    public var accomplishment: Double
    public var activeSeconds: Double
    /// Target duration in seconds (0 when sessions end only on idle).
    public var targetSeconds: Double
    /// Mean movement (g, gravity removed) so far.
    public var average: Double

    public init(subject: Symbol, device: Symbol, sessionStart: Int64, t: Int64, accomplishment: Double,
                activeSeconds: Double, targetSeconds: Double, average: Double) {
        self.subject = subject
        self.device = device
        self.sessionStart = sessionStart
        self.t = t
        self.accomplishment = accomplishment
        self.activeSeconds = activeSeconds
        self.targetSeconds = targetSeconds
        self.average = average
    }

    public var elapsedSeconds: Double { Double(t - sessionStart) / 1000 }
}

/// One finished motion (toothbrushing) session.
public struct MotionSession: Hashable, Sendable {
    public enum EndReason: String, Sendable, CaseIterable {
        /// The target duration was reached.
        case target
        /// No movement for the idle timeout.
        case idle
        /// The device disconnected (or the stream broke) mid-session.
        case disconnect
        /// The input ended.
        case end
    }

    public var subject: Symbol
    public var device: Symbol
    public var source: Symbol
    /// UTC epoch milliseconds of the first and last sample.
    public var start: Int64
    public var end: Int64
    /// Local offset from UTC in seconds, for the local date fields.
    public var utcOffset: Int32
    /// Mean movement over the session (g, gravity removed): the seed's "average".
    public var average: Double
    /// 0–100 toward the goal.
    public var accomplishment: Double
    public var activeSeconds: Double
    public var samples: Int64
    public var endReason: EndReason
    public var provenance: Provenance

    public init(subject: Symbol, device: Symbol, source: Symbol, start: Int64, end: Int64, utcOffset: Int32,
                average: Double, accomplishment: Double, activeSeconds: Double, samples: Int64,
                endReason: EndReason, provenance: Provenance = .none) {
        self.subject = subject
        self.device = device
        self.source = source
        self.start = start
        self.end = end
        self.utcOffset = utcOffset
        self.average = average
        self.accomplishment = accomplishment
        self.activeSeconds = activeSeconds
        self.samples = samples
        self.endReason = endReason
        self.provenance = provenance
    }

    public var durationSeconds: Double { Double(end - start) / 1000 }
}
