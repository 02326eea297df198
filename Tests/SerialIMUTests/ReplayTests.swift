import Foundation
import HealthPipeAnalytics
import HealthPipeCore
@testable import SerialIMU
import Testing

/// Replays of the committed captures (samples/imu, made by generate_imu_samples.py).
@Suite struct ReplayTests {
    static let monday0730 = Int64(1_767_598_200_000) // 2026-01-05T07:30:00Z

    /// The IMU_Capture gestures file from Monday 07:30, 0.5 s between gestures, 2 s idle ending a session.
    static func replayGestures(targetSeconds: Double) throws -> MotionRun {
        let folder = try TempFolder()
        var s = SerialIMUSource.Settings(path: Paths.sample("imu_capture_gestures.csv"))
        s.startMs = monday0730
        s.layout.gestureGapMs = 500
        var rules = SessionRules()
        rules.targetSeconds = targetSeconds
        rules.idleSeconds = 2
        return try runMotion(s, rules: rules, folder: folder)
    }

    @Test func imuCaptureFileGivesEveryGestureAt119Hz() throws {
        let run = try Self.replayGestures(targetSeconds: 0)
        #expect(run.samples.count == 13 * 119)
        #expect(run.quarantined == 0)
        #expect(run.samples.first?.t == Self.monday0730)
        #expect(run.samples.allSatisfy { $0.flags.contains(.derivedTime) && $0.gyro != nil })
        // Within a gesture: 119 Hz; between gestures: one period plus the 0.5 s gap.
        #expect(run.samples[1].t - run.samples[0].t == 8)
        #expect(run.samples[119].t - run.samples[118].t == 508)
        #expect(run.samples[119].provenance.line == 122)
        // One session of 13 gestures, ended by the end of the input.
        #expect(run.sessions.count == 1)
        let session = try #require(run.sessions.first)
        #expect(session.endReason == .end)
        #expect(session.start == Self.monday0730)
        #expect(session.end == run.samples.last?.t)
        #expect(session.activeSeconds > 10 && session.activeSeconds < 13.5)
    }

    @Test func aShortTargetSplitsTheCaptureIntoTimedSessions() throws {
        let run = try Self.replayGestures(targetSeconds: 5)
        #expect(run.sessions.count == 4)
        #expect(run.sessions.dropLast().allSatisfy { $0.endReason == .target && $0.durationSeconds >= 5 && $0.durationSeconds < 5.51 })
        #expect(run.sessions.last?.endReason == .end)
        #expect(zip(run.sessions, run.sessions.dropFirst()).allSatisfy { $0.end < $1.start })
    }

    @Test func millisecondStreamGivesTheTwoBrushingSessionsAndQuarantinesTheNoise() throws {
        let folder = try TempFolder()
        var s = SerialIMUSource.Settings(path: Paths.sample("brushing_stream_tms.csv"))
        s.startMs = Self.monday0730
        let run = try runMotion(s, folder: folder)
        #expect(run.samples.count == 112 * 50 - 2)
        #expect(run.quarantined == 2)
        #expect(run.rejects.map(\.line) == [1002, 3252])
        #expect(run.samples.allSatisfy { !$0.flags.contains(.derivedTime) })
        // 5–45 s and 60–85 s (the 3 s pause is shorter than the idle timeout); the 0.5 s bump is noise.
        #expect(run.sessions.count == 2)
        #expect(run.sessions.map(\.start) == [Self.monday0730 + 5_000, Self.monday0730 + 60_000])
        #expect(run.sessions.map(\.endReason) == [.idle, .idle])
        #expect(abs(run.sessions[0].durationSeconds - 40) < 0.1)
        #expect(abs(run.sessions[1].durationSeconds - 25) < 0.1)
        #expect(abs(run.sessions[1].activeSeconds - 22) < 0.2)
        #expect(run.sessions.allSatisfy { $0.accomplishment > 20 && $0.accomplishment < 100 && $0.average > 0.2 })
        // Live progress is monotone within a session and reaches the session's final value.
        let first = run.progress.filter { $0.sessionStart == run.sessions[0].start }
        #expect(first.count > 100)
        #expect(zip(first, first.dropFirst()).allSatisfy { $0.accomplishment <= $1.accomplishment })
        #expect(abs((first.last?.accomplishment ?? 0) - run.sessions[0].accomplishment) < 1)
    }

    @Test func targetOfThirtySecondsCutsTheLongSession() throws {
        let folder = try TempFolder()
        var s = SerialIMUSource.Settings(path: Paths.sample("brushing_stream_tms.csv"))
        s.startMs = Self.monday0730
        var rules = SessionRules()
        rules.targetSeconds = 30
        let run = try runMotion(s, rules: rules, folder: folder)
        // The timer ends a session at 30 s even if the brush already rests (the seed's timed session);
        // the strokes after the first cut make a session of their own.
        #expect(run.sessions.map(\.endReason) == [.target, .idle, .target])
        #expect(run.sessions.map(\.durationSeconds) == [30, 9.96, 30])
        #expect(run.sessions.map(\.start) == [Self.monday0730 + 5_000, Self.monday0730 + 35_020, Self.monday0730 + 60_000])
    }

    @Test func standardInputReplayIsTheSameAsTheFile() throws {
        // Reading through a pipe (as `--replay -` does) must not change a single sample.
        let folder = try TempFolder()
        let data = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("brushing_stream_tms.csv")))
        let fifo = folder.path("capture.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            data.withUnsafeBytes { _ = write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        var s = SerialIMUSource.Settings(path: fifo)
        s.startMs = Self.monday0730
        let run = try runMotion(s, folder: folder)
        #expect(run.samples.count == 112 * 50 - 2)
        #expect(run.sessions.count == 2)
    }

    @Test func binaryFloat32CaptureWithLineNoiseIsResynchronised() throws {
        // 10 s of 100 Hz strokes as AA 55 + 12-byte frames (3 × float32 LE), with three stray bytes
        // after frame 300: no marker confirms frame 300 (the noise might be its own tail), so it joins
        // the one bad run, from its offset; every other frame decodes.
        let folder = try TempFolder()
        var bytes: [UInt8] = []
        for i in 0..<1000 {
            let t = Double(i) / 100
            bytes += [0xAA, 0x55]
            for v in [Float(0.5 * sin(2 * Double.pi * 4 * t)), 0, 1] {
                withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 }
            }
            if i == 300 { bytes += [0xFF, 0x55, 0xAA] }
        }
        let path = folder.path("ble.bin")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var s = SerialIMUSource.Settings(path: path)
        s.startMs = Self.monday0730
        s.layout.encoding = .float32
        s.layout.sync = [0xAA, 0x55]
        s.layout.rateHz = 100
        let run = try runMotion(s, folder: folder)
        #expect(run.samples.count == 999)
        #expect(run.quarantined == 1)
        #expect(run.rejects.first?.line == Int64(4200))  // frame 300 × 14 bytes
        #expect(run.samples.last?.t == Self.monday0730 + 9_980)  // times count samples at 100 Hz: 999 of them
        #expect(run.sessions.count == 1)
    }
}
