import Foundation
import HealthPipeAnalytics
import HealthPipeCore
@testable import SerialIMU
import Testing

/// The source on a real pseudo-terminal with an emulated Arduino printing 119 Hz IMU lines.
@Suite(.serialized) struct PseudoTerminalTests {
    func deviceSettings(_ link: String) -> SerialIMUSource.Settings {
        var s = SerialIMUSource.Settings(path: link, device: "nano33")
        s.forceDevice = true
        s.baud = 9600
        s.reconnect = true
        s.reconnectMaxDelayMs = 200
        s.exitAfterIdleMs = 1_500
        return s
    }

    var rules: SessionRules {
        var r = SessionRules()
        r.targetSeconds = 0
        r.idleSeconds = 2
        r.minActiveSeconds = 1
        return r
    }

    /// A new folder with an emulated Arduino plugged in at `name` inside it, and the meter a stream reports to.
    func plugIn(_ name: String) throws -> (folder: TempFolder, arduino: EmulatedArduino, meter: ProgressMeter) {
        let folder = try TempFolder()
        let arduino = EmulatedArduino(link: folder.path(name))
        try arduino.plugIn()
        return (folder, arduino, ProgressMeter())
    }

    /// Runs the source on its own thread (as the engine does) while `arduino` plays on this one.
    func stream(_ settings: SerialIMUSource.Settings, folder: TempFolder, meter: ProgressMeter,
                play: () -> Void) throws -> MotionRun {
        let box = ResultBox()
        let rules = self.rules
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result { try runMotion(settings, rules: rules, folder: folder, progress: meter) }
            done.signal()
        }
        thread.start()
        play()
        done.wait()
        return try box.result!.get()
    }

    @Test func sessionsDisconnectReconnectAndGarbage() throws {
        let (folder, arduino, meter) = try plugIn("ttyIMU")
        let brushing = ArduinoLines.brushing(seconds: 6), rest = ArduinoLines.resting(seconds: 3)
        let run = try stream(deviceSettings(arduino.link), folder: folder, meter: meter) {
            arduino.print(ArduinoLines.header)
            arduino.print(brushing.joined())                    // session A…
            arduino.print(rest.joined())                        // …ends idle
            arduino.write(bytes: [0x00, 0xFF, 0xFE, 0x41, 0x0A])  // line noise
            arduino.print("0.12,0.3\n")                         // a line that lost its tail
            arduino.print("nan,0.1,0.9,0,0,0\n")
            arduino.print(brushing.joined())                    // session B…
            arduino.print("0.5,0.3")                            // …cut mid-line by the unplug
            arduino.waitUntilRead(meter, total: arduino.bytesWritten)
            arduino.unplug()
            usleep(300_000)
            try? arduino.plugIn()
            arduino.print(ArduinoLines.header)                  // the sketch restarts
            arduino.print(brushing.joined())                    // session C…
            arduino.print(rest.joined())
            arduino.waitUntilRead(meter, total: arduino.bytesWritten)
        }
        #expect(run.connections == 2)
        // Every line that was a reading arrived: nothing lost across the disconnect.
        #expect(run.samples.filter { !$0.isBreak }.count == 3 * brushing.count + 2 * rest.count)
        #expect(run.samples.filter(\.isBreak).count == 1)
        #expect(run.quarantined == 4)
        #expect(run.rejects.map(\.reason).contains { $0.contains("partial line") })
        #expect(run.sessions.map(\.endReason) == [.idle, .disconnect, .idle])
        #expect(run.sessions.allSatisfy { $0.device.text == "nano33" && $0.activeSeconds > 5 && $0.activeSeconds < 6.1 })
        // Times come from the 119 Hz rate and never run backwards across the reconnect.
        let readings = run.samples.filter { !$0.isBreak }
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $0.t <= $1.t })
        #expect(zip(run.sessions, run.sessions.dropFirst()).allSatisfy { $0.end <= $1.start })
    }

    @Test func aWriterThreadPacedAt119HzGetsReceiveTimeStamps() throws {
        let (folder, arduino, meter) = try plugIn("ttyLive")
        let lines = ArduinoLines.resting(seconds: 1) + ArduinoLines.brushing(seconds: 2) + ArduinoLines.resting(seconds: 2.5)
        let began = wallClockMilliseconds()
        let run = try stream(deviceSettings(arduino.link), folder: folder, meter: meter) {
            // The firmware's pace: every 10 ms, the lines due by then at 119 Hz.
            let writer = Thread {
                let start = Date()
                var sent = 0
                while sent < lines.count {
                    let due = min(lines.count, Int(Date().timeIntervalSince(start) * 119) + 1)
                    if due > sent { arduino.print(lines[sent..<due].joined()); sent = due }
                    usleep(10_000)
                }
            }
            writer.start()
            usleep(200_000)
            arduino.waitUntilRead(meter, total: Int64(lines.joined().utf8.count))
        }
        let readings = run.samples.filter { !$0.isBreak }
        #expect(readings.count == lines.count)
        // Stamped from the receive time, then at 119 Hz: the stream spans its 5.5 s, starting when it arrived.
        let first = try #require(readings.first), last = try #require(readings.last)
        #expect(abs(first.t - began) < 2_000)
        #expect(abs(Double(last.t - first.t) - Double(lines.count - 1) * 1000 / 119) < 1_000)
        #expect(run.sessions.map(\.endReason) == [.idle])
        #expect(abs(Double(run.sessions[0].start - first.t) - 1000) < 300)
    }

    @Test func aSenderThatFallsSilentEndsTheSession() throws {
        // IMU_Capture prints only while the board moves: silence, not resting samples, ends a session.
        let (folder, arduino, meter) = try plugIn("ttyQuiet")
        var settings = deviceSettings(arduino.link)
        settings.silenceMs = 500
        let strokes = ArduinoLines.brushing(seconds: 3)
        let run = try stream(settings, folder: folder, meter: meter) {
            arduino.print(strokes.joined())
            arduino.waitUntilRead(meter, total: arduino.bytesWritten)
            usleep(1_000_000)
            arduino.print(strokes.joined())
            arduino.waitUntilRead(meter, total: arduino.bytesWritten)
        }
        #expect(run.samples.filter { !$0.isMarker }.count == 2 * strokes.count)
        #expect(run.samples.filter { $0.flags.contains(.silence) }.count == 2)
        #expect(run.sessions.map(\.endReason) == [.idle, .idle])
        #expect(run.sessions.allSatisfy { $0.samples == strokes.count || $0.samples == strokes.count - 1 })
    }

    @Test func aBurstOfTwentyThousandLinesArrivesWhole() throws {
        let (folder, arduino, meter) = try plugIn("ttyBurst")
        var settings = deviceSettings(arduino.link)
        settings.reconnect = false
        let lines = ArduinoLines.brushing(seconds: 20_000.0 / 119)
        let run = try stream(settings, folder: folder, meter: meter) {
            arduino.print(ArduinoLines.header)
            arduino.print(lines.joined())
            arduino.waitUntilRead(meter, total: arduino.bytesWritten)
            arduino.unplug()
        }
        #expect(lines.count == 20_000)
        #expect(run.samples.filter { !$0.isBreak }.count == 20_000)
        #expect(run.quarantined == 0)
        #expect(run.connections == 1)
        #expect(run.sessions.count == 1)
        #expect(run.sessions.first?.endReason == .disconnect)
    }

    @Test func aDeviceThatNeverAppearsIsAnErrorWithoutReconnect() throws {
        let folder = try TempFolder()
        var s = deviceSettings(folder.path("ttyMissing"))
        s.reconnect = false
        #expect(throws: InputError.self) { try runMotion(s, folder: folder) }
    }
}

final class ResultBox: @unchecked Sendable {
    var result: Result<MotionRun, Error>?
}
