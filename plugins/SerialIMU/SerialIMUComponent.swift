import Foundation
import HealthPipeCore

public let serialIMUComponent = ComponentDescriptor(
    name: "serial-imu", role: .source, family: "SerialIMU",
    summary: """
        Accelerometer stream from a serial device (/dev/ttyACM0, /dev/ttyUSB0, a ble-serial pty such as /tmp/ttyBLE; \
        termios raw mode) or a recorded capture file / stdin (replay). Text lines (IMU_Capture `aX,aY,aZ,gX,gY,gZ`, TSV, \
        `t_ms,…`, Klipper `#time,accel_x,…`) or binary frames. Emits motion samples in g with UTC times. Bad bytes, partial \
        lines, NaN and out-of-range values are rejected, never fatal. See docs/motion.md.
        """,
    options: [
        OptionDoc("path", "path", required: true, "device, capture file, or `-` for standard input"),
        OptionDoc("baud", "integer", default: "9600", "serial speed (IMU_Capture prints at 9600)"),
        OptionDoc("reconnect", "bool", default: "false", "after a disconnect, reopen the device with backoff (0.1 s doubling)"),
        OptionDoc("reconnect_max_delay", "seconds", default: "5", "longest wait between reconnect attempts"),
        OptionDoc("exit_after_idle", "seconds", default: "none", "stop when no byte has arrived for this long"),
        OptionDoc("format", "csv | tsv | float32 | int16", default: "csv",
                  "text lines (separator from the line: tab, comma or semicolon) or binary frames of 3 values"),
        OptionDoc("columns", "list of ax ay az gx gy gz t_ms t_s skip", default: "[ax, ay, az, gx, gy, gz]",
                  "text columns in order; a recognised header line replaces them"),
        OptionDoc("header", "bool", default: "auto", "true: the first line must be a header; false: never a header"),
        OptionDoc("units", "g | m/s2", default: "g", "acceleration unit of the stream (stored in g)"),
        OptionDoc("rate", "Hz", default: "119", "sample rate for streams without a time column (LSM9DS1: 119 Hz)"),
        OptionDoc("start", "ISO-8601 instant", default: "file mtime (replay) or now (device)",
                  "time of the first sample, for replays and relative time columns"),
        OptionDoc("gesture_gap", "seconds", default: "0", "time added at each blank line when replaying a stream without times"),
        OptionDoc("max_g", "g", default: "16", "readings beyond ±max_g on any axis are rejected"),
        OptionDoc("max_dps", "°/s", default: "2000", "gyro readings beyond this are rejected"),
        OptionDoc("int16_scale", "g per LSB", default: "4/32768", "scale of int16 frames"),
        OptionDoc("big_endian", "bool", default: "false", "int16 frames are big-endian (Bluefruit)"),
        OptionDoc("sync", "hex", default: "none", "frame marker before each binary frame, e.g. AA55"),
        OptionDoc("checksum", "none | xor8 | sum8", default: "none",
                  "a check byte after each binary frame's payload (XOR or sum of its bytes); it confirms the frame"),
        OptionDoc("device", "text", default: "the path's last component", "device name stored with samples and sessions"),
        OptionDoc("device_mode", "bool", default: "auto", "treat the path as a device even if it is not a character device yet"),
        OptionDoc("silence", "seconds", default: "3", "on a device, this long without bytes ends the open session as idle "
                  + "(IMU_Capture prints only while moving); 0 disables"),
    ],
    produces: [.motionSamples],
    build: { b in try SerialIMUSource(settings: SerialIMUSettingsBuilder.settings(b), stop: StopFlag()) })

enum SerialIMUSettingsBuilder {
    static func settings(_ b: ComponentBuilder) throws -> SerialIMUSource.Settings {
        var s = SerialIMUSource.Settings(path: b.path(try b.required("path")), device: try b.value("device"))
        if let baud = try b.wholeNumber("baud", .baud) {
            guard [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1_000_000, 2_000_000].contains(baud) else {
                throw b.error("unsupported baud rate \(baud)", option: "baud")
            }
            s.baud = baud
        }
        s.reconnect = try b.value("reconnect") ?? false
        // Every number below passes its NumberRule first, so the conversions to milliseconds cannot trap.
        if let d = try b.number("reconnect_max_delay", .seconds) { s.reconnectMaxDelayMs = Int64(max(0.1, d) * 1000) }
        if let idle = try b.number("exit_after_idle", .positiveSeconds) { s.exitAfterIdleMs = Int64(idle * 1000) }
        s.forceDevice = try b.value("device_mode") ?? false
        if let quiet = try b.number("silence", .seconds) { s.silenceMs = quiet > 0 ? Int64(quiet * 1000) : nil }
        var layout = StreamLayout()
        switch try b.value("format") ?? "csv" {
        case "csv", "tsv", "text": layout.encoding = .text
        case "float32": layout.encoding = .float32
        case "int16": layout.encoding = .int16
        case let f: throw b.error("unknown format '\(f)' (csv, tsv, float32, int16)", option: "format")
        }
        if let cols = try b.value("columns", as: [String].self) {
            var mapped: [StreamLayout.Column] = []
            for c in cols {
                guard let col = StreamLayout.Column(rawValue: c) else {
                    throw b.error("unknown column '\(c)' (ax ay az gx gy gz t_ms t_s skip)", option: "columns")
                }
                mapped.append(col)
            }
            guard [.ax, .ay, .az].allSatisfy(mapped.contains) else { throw b.error("columns need ax, ay and az", option: "columns") }
            layout.columns = mapped
        }
        layout.header = try b.value("header")
        switch try b.value("units") ?? "g" {
        case "g": layout.units = .g
        case "m/s2", "m/s²", "m/s^2": layout.units = .metersPerSecondSquared
        case let u: throw b.error("unknown unit '\(u)' (g, m/s2)", option: "units")
        }
        if let r = try b.number("rate", .sampleRate) { layout.rateHz = r }
        if let gap = try b.number("gesture_gap", .seconds) { layout.gestureGapMs = Int64(gap * 1000) }
        if let m = try b.number("max_g", .acceleration) { layout.maxG = Float(m) }
        if let m = try b.number("max_dps", .rotationRate) { layout.maxDegreesPerSecond = Float(m) }
        if let sc = try b.number("int16_scale", .int16Scale) { layout.int16Scale = Float(sc) }
        layout.bigEndian = try b.value("big_endian") ?? false
        if let hex = try b.value("sync", as: String.self) {
            guard let bytes = parseHex(hex), !bytes.isEmpty else { throw b.error("sync is hex bytes such as AA55", option: "sync") }
            layout.sync = bytes
        }
        if let c = try b.value("checksum", as: String.self) {
            guard let checksum = StreamLayout.Checksum(rawValue: c) else { throw b.error("checksum is none, xor8 or sum8", option: "checksum") }
            layout.checksum = checksum
        }
        s.layout = layout
        if let start = try b.value("start", as: String.self) {
            guard let ms = parseInstant(start) else {
                throw b.error("start is an ISO-8601 instant such as 2026-01-05T07:30:00Z", option: "start")
            }
            s.startMs = ms
        }
        return s
    }

    static func parseHex(_ text: String) -> [UInt8]? {
        let digits = Array(text.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "0x", with: ""))
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let v = UInt8(String(digits[i...i + 1]), radix: 16) else { return nil }
            out.append(v)
        }
        return out
    }

    /// `2026-01-05T07:30:00Z`, with optional fractional seconds and an offset; or epoch milliseconds.
    static func parseInstant(_ text: String) -> Int64? {
        if let ms = Int64(text) { return ms }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = f.date(from: text) { return Int64((d.timeIntervalSince1970 * 1000).rounded()) }
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: text).map { Int64($0.timeIntervalSince1970 * 1000) }
    }
}

/// Everything SerialIMU registers.
public enum SerialIMUPlugin {
    public static var components: [ComponentDescriptor] { [serialIMUComponent, sessionBarComponent] }
}
