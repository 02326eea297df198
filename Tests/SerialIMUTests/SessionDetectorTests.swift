import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeTestSupport
import Testing

/// The session rules on hand-made sample sequences (100 Hz unless said otherwise).
@Suite struct SessionDetectorTests {
    let device = Symbol("brush")
    let t0: Int64 = 1_767_598_200_000

    func rest(_ from: Double, _ to: Double, gravity: SIMD3<Float> = SIMD3(0, 0, 1)) -> [MotionSample] {
        stride(from: from, to: to, by: 0.01).map { (t: Double) -> MotionSample in
            MotionSample(device: device, t: t0 + Int64((t * 1000).rounded()), ax: gravity.x, ay: gravity.y, az: gravity.z)
        }
    }

    func strokes(_ from: Double, _ to: Double, amplitude: Float = 0.5) -> [MotionSample] {
        stride(from: from, to: to, by: 0.01).map { (t: Double) -> MotionSample in
            let x: Float = amplitude * Float(sin(2 * Double.pi * 4 * t))
            return MotionSample(device: device, t: t0 + Int64((t * 1000).rounded()), ax: x, ay: 0, az: 1)
        }
    }

    func run(_ samples: [MotionSample], _ rules: SessionRules) throws -> (sessions: [MotionSession], progress: [SessionProgress]) {
        let t = MotionSessionTransform(rules: rules, subject: "s", zone: TimeZone(identifier: "UTC"))
        let ctx = StageContext.forTesting("motion-session", name: "s")
        var out = RecordBatch()
        let collect: (RecordBatch) throws -> Void = { b in
            out.motionSessions += b.motionSessions
            out.sessionProgress += b.sessionProgress
        }
        try t.process(RecordBatch(motionSamples: samples), context: ctx, emit: collect)
        try t.finish(context: ctx, emit: collect)
        return (out.motionSessions, out.sessionProgress)
    }

    @Test func aRestingDeviceInAnyOrientationMakesNoSession() throws {
        let tilted = SIMD3<Float>(0.6, 0.0, 0.8)
        #expect(try run(rest(0, 30, gravity: tilted), SessionRules()).sessions.isEmpty)
        #expect(try run(rest(0, 30), SessionRules()).sessions.isEmpty)
    }

    @Test func idleEndsTheSessionAtItsLastStroke() throws {
        var r = SessionRules()
        r.idleSeconds = 3
        let (sessions, progress) = try run(rest(0, 2) + strokes(2, 12) + rest(12, 20), r)
        #expect(sessions.count == 1)
        let s = try #require(sessions.first)
        #expect(s.endReason == .idle)
        #expect(abs(Double(s.start - t0) / 1000 - 2) < 0.1)
        #expect(abs(s.durationSeconds - 10) < 0.1)
        #expect(s.activeSeconds > 8 && s.activeSeconds <= 10)
        #expect(!progress.isEmpty && progress.allSatisfy { $0.sessionStart == s.start })
    }

    @Test func accomplishmentGrowsWithMovementAndStopsAtTheGoal() throws {
        var r = SessionRules()
        r.goalGSeconds = 1
        let full = try run(strokes(0, 20) + rest(20, 40), r).sessions
        #expect(full.first?.accomplishment == 100)
        r.goalGSeconds = 1000
        let gentle = try run(strokes(0, 20, amplitude: 0.3) + rest(20, 40), r).sessions
        let strong = try run(strokes(0, 20, amplitude: 0.6) + rest(20, 40), r).sessions
        #expect(gentle[0].accomplishment < strong[0].accomplishment)
        #expect(gentle[0].average < strong[0].average)
    }

    @Test func aStreamBreakEndsTheSessionAsADisconnect() throws {
        let (sessions, _) = try run(strokes(0, 5) + [MotionSample.streamBreak(device: device, t: t0 + 5_000)] + strokes(5.5, 9), SessionRules())
        #expect(sessions.map(\.endReason) == [.disconnect, .end])
    }

    @Test func bumpsShorterThanMinActiveAreNoise() throws {
        let (sessions, _) = try run(rest(0, 2) + strokes(2, 2.5) + rest(2.5, 30), SessionRules())
        #expect(sessions.isEmpty)
    }

    @Test func immediateStartOpensOnTheFirstSample() throws {
        var r = SessionRules()
        r.start = .immediate
        r.targetSeconds = 5
        let (sessions, _) = try run(rest(0, 2) + strokes(2, 8), r)
        #expect(sessions.first?.start == t0)
        #expect(sessions.first?.endReason == .target)
    }

    @Test func devicesAreSeparated() throws {
        let other = Symbol("other")
        let mixed = strokes(0, 6).flatMap { s -> [MotionSample] in
            var o = s
            o.device = other
            return [s, o]
        }
        let (sessions, _) = try run(mixed, SessionRules())
        #expect(Set(sessions.map(\.device)) == [device, other])
    }
}
