/// One decoded reading before it gets its timestamp: acceleration in g, gyro in °/s, the stream's
/// own time when it has one, and where it was read (line number, or byte offset for binary).
public struct RawReading: Sendable {
    public var accel: SIMD3<Float>
    public var gyro: SIMD3<Float>?
    /// The stream's time in milliseconds (relative or epoch; see StreamLayout.Column).
    public var streamTimeMs: Double?
    public var position: Int64
}

/// What a decoder finds in the bytes.
public enum DecodeEvent: Sendable {
    case reading(RawReading)
    /// A blank line: the IMU_Capture gesture separator.
    case gestureBreak
    /// Bytes that are not a reading: counted and quarantined by the source.
    case bad(position: Int64, reason: String, raw: String)
}

/// Turns a byte stream into readings. Fed chunk by chunk as bytes arrive; holds partial input.
public protocol StreamDecoder {
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ out: (DecodeEvent) throws -> Void) rethrows
    /// The stream broke or ended: whatever partial input is held is reported as bad and dropped.
    mutating func endOfStream(_ out: (DecodeEvent) throws -> Void) rethrows
}

/// Shared range and NaN checks, so text and binary streams reject the same values.
enum ReadingCheck {
    static func problem(_ a: SIMD3<Float>, _ g: SIMD3<Float>?, layout: StreamLayout) -> String? {
        for v in [a.x, a.y, a.z] {
            if !v.isFinite { return "acceleration is not a number" }
            if abs(v) > layout.maxG { return "acceleration \(v) g is beyond the physical range ±\(layout.maxG) g" }
        }
        if let g {
            for v in [g.x, g.y, g.z] {
                if !v.isFinite { return "rotation rate is not a number" }
                if abs(v) > layout.maxDegreesPerSecond { return "rotation rate \(v) °/s is beyond ±\(layout.maxDegreesPerSecond) °/s" }
            }
        }
        return nil
    }
}
