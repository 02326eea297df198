import ArgumentParser

/// Where the stream comes from and how its bytes are laid out (the `serial-imu` options).
struct StreamInputOptions: ParsableArguments {
    @Option(help: "Serial device or BLE bridge pty (/dev/ttyACM0, /dev/ttyUSB0, /tmp/ttyBLE).") var device: String?
    @Option(help: "Recorded capture file to replay, or - for standard input.") var replay: String?
    @Option(help: "Serial speed.") var baud: Int?
    @Flag(help: "Reopen the device with backoff after a disconnect.") var reconnect = false
    @Option(name: .customLong("exit-idle"), help: "Stop after this many seconds without data.") var exitIdle: Double?
    @Option(help: "Seconds without bytes from a device that end the open session (default 3; 0: never).") var silence: Double?
    @Option(help: "csv, tsv, float32 or int16.") var format: String?
    @Option(help: "Comma-separated columns: ax,ay,az,gx,gy,gz,t_ms,t_s,skip (a header line overrides).") var columns: String?
    @Option(help: "Acceleration unit of the stream: g or m/s2.") var units: String?
    @Option(help: "Sample rate in Hz for streams without a time column (default 119).") var rate: Double?
    @Option(help: "ISO-8601 time of the first sample of a replay (default: the file's modification time).") var start: String?
    @Option(name: .customLong("gesture-gap"), help: "Seconds added at each blank line of a replay.") var gestureGap: Double?
    @Option(name: .customLong("device-name"), help: "Device name stored with the sessions.") var deviceName: String?
    @Option(help: "Hex marker before each binary frame (e.g. AA55).") var sync: String?
    @Option(name: .customLong("int16-scale"), help: "g per LSB of int16 frames (default 4/32768).") var int16Scale: Double?
    @Flag(name: .customLong("big-endian"), help: "int16 frames are big-endian (Bluefruit).") var bigEndian = false
}

/// How sessions are cut and scored (the `motion-session` options).
struct StreamSessionOptions: ParsableArguments {
    @Option(help: "Session length in seconds that ends it (0: end on idle only; default 120).") var target: Double?
    @Option(help: "Seconds without movement that end a session (default 10).") var idle: Double?
    @Option(help: "Movement (g·s) that fills the bar to 100% (default 30).") var goal: Double?
    @Option(help: "Movement in g above which a sample is active (default 0.1).") var threshold: Double?
    @Option(name: .customLong("start-on"), help: "movement or immediate.") var startOn: String?
    @Option(name: .customLong("min-active"), help: "Sessions with fewer active seconds are dropped (default 2).") var minActive: Double?
}

/// The pipeline `healthpipe stream` runs, as YAML, so it can be printed and edited for `healthpipe run`.
enum StreamPipeline {
    static func yaml(input: StreamInputOptions, rules: StreamSessionOptions, db: String?, chart: String?, onError: String,
                     cwd: String) -> String {
        func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
        func n(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v) }
        var src: [String] = ["type: serial-imu", "on_error: \(q(onError))"]
        if let d = input.device { src += ["path: \(q(d))", "device_mode: true"] }
        if let r = input.replay { src.append("path: \(q(r))") }
        if let v = input.baud { src.append("baud: \(v)") }
        if input.reconnect { src.append("reconnect: true") }
        if let v = input.exitIdle { src.append("exit_after_idle: \(n(v))") }
        if let v = input.silence { src.append("silence: \(n(v))") }
        if let v = input.format { src.append("format: \(q(v))") }
        if let v = input.columns {
            src.append("columns: [" + v.split(separator: ",").map { q(String($0).trimmingCharacters(in: .whitespaces)) }.joined(separator: ", ") + "]")
        }
        if let v = input.units { src.append("units: \(q(v))") }
        if let v = input.rate { src.append("rate: \(n(v))") }
        if let v = input.start { src.append("start: \(q(v))") }
        if let v = input.gestureGap { src.append("gesture_gap: \(n(v))") }
        if let v = input.deviceName { src.append("device: \(q(v))") }
        if let v = input.sync { src.append("sync: \(q(v))") }
        if let v = input.int16Scale { src.append("int16_scale: \(v)") }
        if input.bigEndian { src.append("big_endian: true") }
        var tr: [String] = ["type: motion-session", "inputs: [imu]"]
        if let v = rules.target { tr.append("target: \(n(v))") }
        if let v = rules.idle { tr.append("idle: \(n(v))") }
        if let v = rules.goal { tr.append("goal: \(n(v))") }
        if let v = rules.threshold { tr.append("threshold: \(n(v))") }
        if let v = rules.startOn { tr.append("start: \(q(v))") }
        if let v = rules.minActive { tr.append("min_active: \(n(v))") }
        var y = "sources:\n  imu: { " + src.joined(separator: ", ") + " }\n"
        y += "transforms:\n  sessions: { " + tr.joined(separator: ", ") + " }\n"
        y += "sinks:\n  bar: { type: session-bar, inputs: [sessions] }\n"
        if let db { y += "  db: { type: sqlite, inputs: [sessions], path: \(q(db)) }\n" }
        if let chart { y += "  chart: { type: history-chart, inputs: [sessions], path: \(q(chart)), period: week, at: latest }\n" }
        return y
    }
}
