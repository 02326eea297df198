import HealthPipeCore

/// Splits one device's motion samples into sessions. Movement is the length of the acceleration
/// minus a low-pass gravity estimate (so a tilted, resting device reads ~0 g whatever its
/// orientation); movement × time accumulates toward the goal. Driven by sample times only, so a
/// replay gives the same sessions as the live stream did.
struct MotionSessionDetector {
    let rules: SessionRules
    let device: Symbol

    private var gravity: SIMD3<Double>?
    private var lastT: Int64?
    private var open: OpenSession?

    struct OpenSession {
        var start: Int64
        var lastT: Int64
        var lastActiveT: Int64
        var samples: Int64 = 0
        var movementSum = 0.0
        var movementIntegral = 0.0
        var activeSeconds = 0.0
        var lastProgressT: Int64
        var provenance: Provenance
    }

    struct Closed {
        var start: Int64, end: Int64
        var average: Double, accomplishment: Double, activeSeconds: Double, samples: Int64
        var reason: MotionSession.EndReason
        var provenance: Provenance
    }

    enum Output {
        case progress(SessionProgress)
        case closed(Closed)
    }

    init(rules: SessionRules, device: Symbol) {
        self.rules = rules
        self.device = device
    }

    var isOpen: Bool { open != nil }

    mutating func add(_ s: MotionSample, subject: Symbol, _ out: (Output) -> Void) {
        if s.isBreak {
            close(reason: .disconnect, out)
            gravity = nil
            lastT = nil
            return
        }
        if s.flags.contains(.silence) {
            close(reason: .idle, out)
            return
        }
        let a = SIMD3<Double>(Double(s.ax), Double(s.ay), Double(s.az))
        var dt = 0.0
        if let last = lastT, s.t > last { dt = Double(s.t - last) / 1000 }
        let gap = dt > rules.maxStepSeconds
        if gap { dt = 0 }
        lastT = max(lastT ?? s.t, s.t)
        if let g = gravity, !gap {
            let alpha = dt / (rules.gravityTauSeconds + dt)
            gravity = g + alpha * (a - g)
        } else if gravity == nil {
            // Gravity is 1 g long: start from the first reading's direction, so a first reading
            // taken mid-stroke (IMU_Capture starts on a 2.5 g trigger) already counts as movement.
            let length = (a * a).sum().squareRoot()
            gravity = length > 0.1 ? a / length : SIMD3(0, 0, 1)
        }
        let d = a - (gravity ?? a)
        let movement = (d * d).sum().squareRoot()
        let active = movement >= rules.thresholdG

        if let o = open, Double(s.t - o.lastActiveT) / 1000 >= rules.idleSeconds {
            close(reason: .idle, out)
        }
        if open == nil {
            guard active || rules.start == .immediate else { return }
            open = OpenSession(start: s.t, lastT: s.t, lastActiveT: s.t, lastProgressT: s.t, provenance: s.provenance)
        }
        guard var o = open else { return }
        o.samples += 1
        o.movementSum += movement
        o.movementIntegral += movement * dt
        if active {
            o.activeSeconds += dt
            o.lastActiveT = s.t
        }
        o.lastT = s.t
        open = o
        if Double(s.t - o.lastProgressT) / 1000 >= rules.progressEverySeconds {
            open?.lastProgressT = s.t
            out(.progress(SessionProgress(subject: subject, device: device, sessionStart: o.start, t: s.t,
                                          accomplishment: accomplishment(o), activeSeconds: o.activeSeconds,
                                          targetSeconds: rules.targetSeconds, average: o.movementSum / Double(o.samples))))
        }
        if rules.targetSeconds > 0, Double(s.t - o.start) / 1000 >= rules.targetSeconds {
            close(reason: .target, out)
        }
    }

    /// Ends the open session, if any. An idle session ends at its last active sample.
    mutating func close(reason: MotionSession.EndReason, _ out: (Output) -> Void) {
        guard let o = open else { return }
        open = nil
        guard o.activeSeconds >= rules.minActiveSeconds else { return }
        let end = reason == .idle ? o.lastActiveT : o.lastT
        out(.closed(Closed(start: o.start, end: end, average: o.movementSum / Double(max(1, o.samples)),
                           accomplishment: accomplishment(o), activeSeconds: o.activeSeconds, samples: o.samples,
                           reason: reason, provenance: o.provenance)))
    }

    private func accomplishment(_ o: OpenSession) -> Double {
        rules.goalGSeconds > 0 ? min(100, o.movementIntegral / rules.goalGSeconds * 100) : 0
    }
}
