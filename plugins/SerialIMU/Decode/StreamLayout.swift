import HealthPipeCore

/// How a motion stream is laid out: no stream describes itself (formats.md §8.3), so every
/// property comes from configuration, with header names as the only hint read from the data.
public struct StreamLayout: Sendable, Hashable {
    public enum Encoding: String, Sendable, CaseIterable {
        /// Text lines, fields separated by `,` (IMU_Capture), `;` or tabs.
        case text
        /// Fixed frames of 3 × float32 little-endian (one packed ArduinoBLE characteristic).
        case float32
        /// Fixed frames of 3 × int16 scaled by `int16Scale` (Bluefruit style; big- or little-endian).
        case int16
    }

    /// What a text column holds.
    public enum Column: String, Sendable, CaseIterable, Hashable {
        case ax, ay, az, gx, gy, gz
        /// Milliseconds (relative to the session start, or epoch ms when > 10¹¹).
        case tMs = "t_ms"
        /// Seconds (relative, or epoch seconds when > 10⁸), e.g. Klipper's `#time`.
        case tS = "t_s"
        case skip
    }

    public enum AccelerationUnit: String, Sendable, CaseIterable {
        case g
        case metersPerSecondSquared = "m/s2"
        public var toG: Float { self == .g ? 1 : 1 / 9.80665 }
    }

    public var encoding: Encoding = .text
    /// Text columns in order; replaced by the header's names when a header line is recognised.
    public var columns: [Column] = [.ax, .ay, .az, .gx, .gy, .gz]
    /// nil: a first line with letters is a header; true: the first line must be one; false: never.
    public var header: Bool?
    public var units: AccelerationUnit = .g
    /// Samples per second, for streams without a time column (LSM9DS1: 119 Hz).
    public var rateHz: Double = 119
    /// Time added at each blank line (gesture separator) when replaying a stream without times.
    public var gestureGapMs: Int64 = 0
    /// Physical limits: a reading beyond them is a corrupt value, not movement.
    public var maxG: Float = 16
    public var maxDegreesPerSecond: Float = 2000
    /// g per LSB for int16 frames (e.g. ±4 g range: 4/32768).
    public var int16Scale: Float = 4.0 / 32768
    public var bigEndian = false
    /// Optional frame marker for binary streams; frames are then `sync + payload`.
    public var sync: [UInt8] = []

    /// An optional check byte after a binary frame's payload, over the payload's bytes.
    public enum Checksum: String, Sendable, CaseIterable {
        case none
        /// All payload bytes XORed.
        case xor8 = "xor8"
        /// All payload bytes added, modulo 256.
        case sum8 = "sum8"
    }
    /// With a checksum a frame is `sync + payload + check byte`, and the check byte confirms it.
    public var checksum: Checksum = .none
    /// Longest acceptable text line; longer runs of bytes are garbage.
    public var maxLineBytes = 256

    public init() {}

    public var hasTimeColumn: Bool { columns.contains(.tMs) || columns.contains(.tS) }
    public var samplePeriodMs: Double { 1000 / rateHz }

    /// Maps a header cell (`aX`, `accel_x`, `#time`, `t_ms`, `X`) to a column.
    public static func column(forHeader raw: Substring) -> Column? {
        var name = raw.lowercased()
        while name.hasPrefix("#") || name.hasPrefix(" ") { name.removeFirst() }
        name = name.trimmingSpaces
        switch name {
        case "ax", "accel_x", "acc_x", "accx", "x", "a_x": return .ax
        case "ay", "accel_y", "acc_y", "accy", "y", "a_y": return .ay
        case "az", "accel_z", "acc_z", "accz", "z", "a_z": return .az
        case "gx", "gyro_x", "gyr_x", "gyrx", "g_x": return .gx
        case "gy", "gyro_y", "gyr_y", "gyry", "g_y": return .gy
        case "gz", "gyro_z", "gyr_z", "gyrz", "g_z": return .gz
        case "t_ms", "ms", "millis", "time_ms", "timestamp_ms": return .tMs
        case "time", "t", "t_s", "seconds": return .tS
        default: return nil
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
