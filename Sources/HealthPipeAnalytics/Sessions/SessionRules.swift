/// When a motion session starts and ends, and how movement fills the accomplishment bar.
public struct SessionRules: Sendable, Hashable {
    public enum StartRule: String, Sendable, CaseIterable {
        /// The first sample whose movement exceeds the threshold (the brush is picked up).
        case movement
        /// The first sample of the stream or after a reconnect (the seed's Start button).
        case immediate
    }

    /// Movement (g, gravity removed) above which a sample counts as active.
    public var thresholdG = 0.1
    public var start = StartRule.movement
    /// The session ends when it has lasted this long (seconds; 0 = no target, idle only).
    public var targetSeconds = 120.0
    /// The session ends after this long without an active sample (seconds).
    public var idleSeconds = 10.0
    /// Accumulated movement (g·s) that fills the bar to 100 %.
    public var goalGSeconds = 30.0
    /// Sessions with less active time are noise (a bump of the table) and are dropped.
    public var minActiveSeconds = 2.0
    /// Stream time between live progress records (seconds).
    public var progressEverySeconds = 0.25
    /// Time constant of the low-pass filter that estimates gravity (seconds).
    public var gravityTauSeconds = 1.0
    /// Samples further apart than this count as a gap: no movement is credited across it.
    public var maxStepSeconds = 0.5

    public init() {}
}
