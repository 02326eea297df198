import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeTestSupport
import SerialIMU
import Synchronization

/// A fresh folder per test, removed when the value goes away.
final class TempFolder: Sendable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("serialimu-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

enum Paths {
    // Tests/SerialIMUTests/Support/<this file> → the package root.
    static let packageRoot = Repository.root
    static func sample(_ name: String) -> String { packageRoot.appendingPathComponent("samples/imu/\(name)").path }
}

/// What a source → motion-session run produced.
struct MotionRun {
    var samples: [MotionSample] = []
    var sessions: [MotionSession] = []
    var progress: [SessionProgress] = []
    var quarantined: Int64 = 0
    var rejects: [RowError] = []
    var connections = 0
}

/// Runs a `SerialIMUSource` into a `MotionSessionTransform` on the calling thread, the way the
/// engine wires them, and collects everything. `keepSamples` false keeps memory flat for bursts.
func runMotion(_ settings: SerialIMUSource.Settings, rules: SessionRules = SessionRules(), folder: TempFolder,
               stop: StopFlag = StopFlag(), keepSamples: Bool = true,
               progress: ProgressMeter = ProgressMeter()) throws -> MotionRun {
    let quarantine = QuarantineWriter(path: folder.path("quarantine-\(UUID().uuidString).ndjson"))
    defer { quarantine.close() }
    let sourceContext = StageContext.forTesting("serial-imu", name: "imu", policy: .quarantine, quarantine: quarantine, progress: progress)
    let transformContext = StageContext.forTesting("motion-session", name: "sessions", quarantine: quarantine, progress: progress)
    let source = SerialIMUSource(settings: settings, stop: stop)
    let transform = MotionSessionTransform(rules: rules, subject: "tester", zone: TimeZone(identifier: "UTC"))
    var run = MotionRun()
    var sampleCount = 0
    let collect: (RecordBatch) throws -> Void = { b in
        run.sessions += b.motionSessions
        run.progress += b.sessionProgress
    }
    try source.run(context: sourceContext) { batch in
        if keepSamples { run.samples += batch.motionSamples }
        sampleCount += batch.motionSamples.count
        try transform.process(batch, context: transformContext, emit: collect)
    }
    try transform.finish(context: transformContext, emit: collect)
    run.quarantined = sourceContext.quarantined
    run.rejects = sourceContext.sampleErrors
    run.connections = source.connections
    if !keepSamples { run.samples = [] }
    return run
}

/// Lines an Arduino running IMU_Capture-like firmware would print: 119 Hz, 3 decimals, g and °/s.
enum ArduinoLines {
    static let header = "aX,aY,aZ,gX,gY,gZ\n"
    /// `seconds` of brushing strokes (4 Hz, ±0.6 g) around a tilted gravity vector.
    static func brushing(seconds: Double, startIndex: Int = 0) -> [String] {
        (0..<Int(seconds * 119)).map { i in
            let t = Double(startIndex + i) / 119
            let ax = 0.2 + 0.6 * sin(2 * .pi * 4 * t), ay = 0.3 + 0.3 * sin(2 * .pi * 1.3 * t), az = 0.933 + 0.15 * cos(2 * .pi * 4 * t)
            return line(ax, ay, az, 90 * cos(2 * .pi * 4 * t), 25 * sin(2 * .pi * 1.3 * t), 0)
        }
    }
    /// `seconds` of the brush lying still.
    static func resting(seconds: Double) -> [String] {
        (0..<Int(seconds * 119)).map { i in line(0.2 + (i % 2 == 0 ? 0.002 : -0.002), 0.3, 0.933, 0.1, -0.1, 0) }
    }
    static func line(_ v: Double...) -> String { v.map { String(format: "%.3f", $0) }.joined(separator: ",") + "\n" }
}
