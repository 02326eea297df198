import ArgumentParser
import HealthPipeAnalytics
import HealthPipeCore
import SerialIMU
import Yams

/// Where the stream comes from and how its bytes are laid out (the `serial-imu` options).
struct StreamInputOptions: ParsableArguments {
    @Option(help: "Serial device or BLE bridge pty (/dev/ttyACM0, /dev/ttyUSB0, /tmp/ttyBLE).") var device: String?
    @Option(help: "Recorded capture file to replay, or - for standard input.") var replay: String?
    @Option(help: "Serial speed.", transform: NumberRule.baud.flag) var baud: NumberFlag?
    @Flag(help: "Reopen the device with backoff after a disconnect.") var reconnect = false
    @Option(name: .customLong("exit-idle"), help: "Stop after this many seconds without data.", transform: NumberRule.positiveSeconds.flag) var exitIdle: NumberFlag?
    @Option(help: "Seconds without bytes from a device that end the open session (default 3; 0: never).", transform: NumberRule.seconds.flag) var silence: NumberFlag?
    @Option(help: "How the samples are written.") var format: StreamFormat?
    @Option(help: "Comma-separated columns: ax,ay,az,gx,gy,gz,t_ms,t_s,skip (a header line overrides).") var columns: String?
    @Option(help: "Acceleration unit of the stream (m/s² and m/s^2 are read too).") var units: StreamLayout.AccelerationUnit?
    @Option(help: "Sample rate in Hz for streams without a time column (default 119).", transform: NumberRule.sampleRate.flag) var rate: NumberFlag?
    @Option(help: "ISO-8601 time of the first sample of a replay (default: the file's modification time).") var start: String?
    @Option(name: .customLong("gesture-gap"), help: "Seconds added at each blank line of a replay.", transform: NumberRule.seconds.flag) var gestureGap: NumberFlag?
    @Option(name: .customLong("device-name"), help: "Device name stored with the sessions.") var deviceName: String?
    @Option(help: "Hex marker before each binary frame (e.g. AA55).") var sync: String?
    @Option(help: "Check byte after each binary frame's payload.") var checksum: StreamLayout.Checksum?
    @Option(name: .customLong("int16-scale"), help: "g per LSB of int16 frames (default 4/32768).", transform: NumberRule.int16Scale.flag) var int16Scale: NumberFlag?
    @Flag(name: .customLong("big-endian"), help: "int16 frames are big-endian (Bluefruit).") var bigEndian = false
}

/// How sessions are cut and scored (the `motion-session` options).
struct StreamSessionOptions: ParsableArguments {
    @Option(help: "Session length in seconds that ends it (0: end on idle only; default 120).", transform: NumberRule.seconds.flag) var target: NumberFlag?
    @Option(help: "Seconds without movement that end a session (default 10).", transform: NumberRule.positiveSeconds.flag) var idle: NumberFlag?
    @Option(help: "Movement (g·s) that fills the bar to 100% (default 30).", transform: NumberRule.movementGoal.flag) var goal: NumberFlag?
    @Option(help: "Movement in g above which a sample is active (default 0.1).", transform: NumberRule.acceleration.flag) var threshold: NumberFlag?
    @Option(name: .customLong("start-on"), help: "What starts a session: movement, or the first sample.") var startOn: SessionRules.StartRule?
    @Option(name: .customLong("min-active"), help: "Sessions with fewer active seconds are dropped (default 2).", transform: NumberRule.seconds.flag) var minActive: NumberFlag?
}

/// The pipeline `healthpipe stream` runs, built from its flags as a value (`--print-pipeline` shows
/// it as YAML for `healthpipe run`).
enum StreamPipeline {
    static func draft(input: StreamInputOptions, rules: StreamSessionOptions, db: String?, chart: String?,
                      onError: ErrorPolicy) -> PipelineDraft {
        func n(_ v: NumberFlag) -> Node { Node(v.value == v.value.rounded() ? String(Int64(v.value)) : String(v.value)) }
        var p = PipelineDraft(command: "healthpipe stream")
        var src: [(key: String, value: Node)] = []
        func flag(_ stage: String, _ option: String, _ text: String) { p.flags["\(stage).\(option)"] = text }
        if let d = input.device { src += [("path", Node(d)), ("device_mode", PipelineDraft.bool(true))]; flag("imu", "path", "--device \(d)") }
        if let r = input.replay { src.append(("path", Node(r))); flag("imu", "path", "--replay \(r)") }
        if let v = input.baud { src.append(("baud", PipelineDraft.int(v.int))); flag("imu", "baud", "--baud \(v)") }
        if input.reconnect { src.append(("reconnect", PipelineDraft.bool(true))) }
        if let v = input.exitIdle { src.append(("exit_after_idle", n(v))); flag("imu", "exit_after_idle", "--exit-idle \(v)") }
        if let v = input.silence { src.append(("silence", n(v))); flag("imu", "silence", "--silence \(v)") }
        if let v = input.format?.rawValue { src.append(("format", Node(v))); flag("imu", "format", "--format \(v)") }
        if let v = input.columns {
            src.append(("columns", PipelineDraft.list(v.split(separator: ",").map { Node(String($0).trimmingCharacters(in: .whitespaces)) })))
            flag("imu", "columns", "--columns \(v)")
        }
        if let v = input.units?.rawValue { src.append(("units", Node(v))); flag("imu", "units", "--units \(v)") }
        if let v = input.rate { src.append(("rate", n(v))); flag("imu", "rate", "--rate \(v)") }
        if let v = input.start { src.append(("start", Node(v))); flag("imu", "start", "--start \(v)") }
        if let v = input.gestureGap { src.append(("gesture_gap", n(v))); flag("imu", "gesture_gap", "--gesture-gap \(v)") }
        if let v = input.deviceName { src.append(("device", Node(v))); flag("imu", "device", "--device-name \(v)") }
        if let v = input.sync { src.append(("sync", Node(v))); flag("imu", "sync", "--sync \(v)") }
        if let v = input.checksum?.rawValue { src.append(("checksum", Node(v))); flag("imu", "checksum", "--checksum \(v)") }
        if let v = input.int16Scale { src.append(("int16_scale", n(v))); flag("imu", "int16_scale", "--int16-scale \(v)") }
        if input.bigEndian { src.append(("big_endian", PipelineDraft.bool(true))) }
        p.add(.source, "imu", type: "serial-imu", onError: onError, options: src)
        var tr: [(key: String, value: Node)] = []
        if let v = rules.target { tr.append(("target", n(v))); flag("sessions", "target", "--target \(v)") }
        if let v = rules.idle { tr.append(("idle", n(v))); flag("sessions", "idle", "--idle \(v)") }
        if let v = rules.goal { tr.append(("goal", n(v))); flag("sessions", "goal", "--goal \(v)") }
        if let v = rules.threshold { tr.append(("threshold", n(v))); flag("sessions", "threshold", "--threshold \(v)") }
        if let v = rules.startOn?.rawValue { tr.append(("start", Node(v))); flag("sessions", "start", "--start-on \(v)") }
        if let v = rules.minActive { tr.append(("min_active", n(v))); flag("sessions", "min_active", "--min-active \(v)") }
        p.add(.transform, "sessions", type: "motion-session", inputs: ["imu"], options: tr)
        p.add(.sink, "bar", type: "session-bar", inputs: ["sessions"])
        if let db { p.add(.sink, "db", type: "sqlite", inputs: ["sessions"], options: [("path", Node(db))]) }
        if let chart {
            p.add(.sink, "chart", type: "history-chart", inputs: ["sessions"],
                  options: [("path", Node(chart)), ("period", Node("week")), ("at", Node("latest"))])
        }
        return p
    }
}
