import Foundation
import HealthPipeCore

/// The `motion-session` transform (alias `brush-session`): motion samples in, live progress
/// records and finished sessions out. One detector per device.
public final class MotionSessionTransform: Transform {
    public let rules: SessionRules
    let subject: Symbol
    let source: Symbol
    let zone: TimeZone?
    private var detectors: [Symbol: MotionSessionDetector] = [:]
    private var out = RecordBatch()
    public private(set) var sessionsEmitted = 0

    public init(rules: SessionRules, subject: String, source: String = "serial-imu", zone: TimeZone? = nil) {
        self.rules = rules
        self.subject = Symbol(subject)
        self.source = Symbol(source)
        self.zone = zone
    }

    public func process(_ batch: RecordBatch, context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        for s in batch.motionSamples {
            var d = detectors[s.device] ?? MotionSessionDetector(rules: rules, device: s.device)
            d.add(s, subject: subject) { collect($0, device: s.device) }
            detectors[s.device] = d
        }
        try flush(emit)
    }

    public func finish(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        for key in detectors.keys.sorted(by: { $0.id < $1.id }) {
            detectors[key]?.close(reason: .end) { collect($0, device: key) }
        }
        try flush(emit)
    }

    private func collect(_ o: MotionSessionDetector.Output, device: Symbol) {
        switch o {
        case .progress(let p): out.sessionProgress.append(p)
        case .closed(let c):
            out.motionSessions.append(MotionSession(
                subject: subject, device: device, source: source, start: c.start, end: c.end,
                utcOffset: offset(at: c.start), average: c.average, accomplishment: c.accomplishment,
                activeSeconds: c.activeSeconds, samples: c.samples, endReason: c.reason, provenance: c.provenance))
            sessionsEmitted += 1
        }
    }

    private func flush(_ emit: (RecordBatch) throws -> Void) throws {
        guard !out.isEmpty else { return }
        try emit(out)
        out = RecordBatch()
    }

    /// The zone's offset at the session start (once per session, so Foundation is fine here).
    private func offset(at ms: Int64) -> Int32 {
        let tz = zone ?? TimeZone.current
        return Int32(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(ms) / 1000)))
    }
}

private func motionSessionDescriptor(name: String, alias: String) -> ComponentDescriptor {
    ComponentDescriptor(
        name: name, role: .transform, family: "HealthPipeAnalytics",
        summary: """
            Splits a motion stream into sessions (e.g. toothbrushing; also registered as '\(alias)'): starts on movement \
            above a threshold (or at once), ends at a target duration or after idle time or at a disconnect. Movement is \
            |acceleration − low-pass gravity| in g; movement × time fills the accomplishment bar toward the goal. Emits live \
            progress records and one session record (average, duration, active time, accomplishment) per session.
            """,
        options: [
            OptionDoc("threshold", "g", default: "0.1", "movement above which a sample is active"),
            OptionDoc("start", "movement | immediate", default: "movement", "what starts a session"),
            OptionDoc("target", "seconds", default: "120", "session length that ends it (0: end on idle only)"),
            OptionDoc("idle", "seconds", default: "10", "time without movement that ends a session"),
            OptionDoc("goal", "g·s", default: "30", "accumulated movement for 100 % accomplishment"),
            OptionDoc("min_active", "seconds", default: "2", "shorter bursts of activity are dropped as noise"),
            OptionDoc("progress_every", "seconds", default: "0.25", "stream time between live progress records"),
            OptionDoc("gravity_tau", "seconds", default: "1", "time constant of the gravity (low-pass) estimate"),
            OptionDoc("timezone", "IANA zone", default: "run timezone, else the system zone", "zone of the local date fields"),
            OptionDoc("source", "text", default: "serial-imu", "source name stored with each session"),
        ],
        accepts: [.motionSamples], produces: [.sessionProgress, .motionSessions],
        build: { b in
            var r = SessionRules()
            r.thresholdG = try b.number("threshold", .acceleration) ?? r.thresholdG
            if let s = try b.value("start", as: String.self) {
                guard let rule = SessionRules.StartRule(rawValue: s) else {
                    throw b.error("start is movement or immediate (got '\(s)')", option: "start")
                }
                r.start = rule
            }
            r.targetSeconds = try b.number("target", .seconds) ?? r.targetSeconds
            r.idleSeconds = try b.number("idle", .positiveSeconds) ?? r.idleSeconds
            r.goalGSeconds = try b.number("goal", .movementGoal) ?? r.goalGSeconds
            r.minActiveSeconds = try b.number("min_active", .seconds) ?? r.minActiveSeconds
            r.progressEverySeconds = try b.number("progress_every", .positiveSeconds) ?? r.progressEverySeconds
            r.gravityTauSeconds = try b.number("gravity_tau", .positiveSeconds) ?? r.gravityTauSeconds
            return MotionSessionTransform(rules: r, subject: b.settings.subject, source: try b.value("source") ?? "serial-imu",
                                          zone: try b.zone(b.value("timezone")))
        })
}

public let motionSessionComponent = motionSessionDescriptor(name: "motion-session", alias: "brush-session")
public let brushSessionComponent = motionSessionDescriptor(name: "brush-session", alias: "motion-session")
