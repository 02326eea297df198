/// Gives readings their UTC time (epoch ms).
///
/// - A time column wins: epoch values (ms > 10¹¹) are used as they are; relative values are added
///   to the segment's base (the configured `start`, else the connection's receive time).
/// - Without a time column, sample i of a run gets `anchor + i × 1000 / rate`. The anchor is the
///   replay `start` (or the receive time of the first sample on a device); each blank line moves
///   it on by `gesture_gap`. On a device the anchor is reset to the receive time when the
///   receive time runs more than a second ahead (the sender paused, e.g. IMU_Capture waiting for
///   its trigger), and times never go backwards across reconnects.
struct SampleClock {
    let periodMs: Double
    let gestureGapMs: Int64
    let live: Bool
    private var base: Int64
    private var anchor: Int64
    private var index: Int64 = 0
    private var pendingGap: Int64 = 0
    private(set) var lastT: Int64 = Int64.min
    private var fresh = true

    init(periodMs: Double, gestureGapMs: Int64, live: Bool, start: Int64) {
        self.periodMs = periodMs
        self.gestureGapMs = gestureGapMs
        self.live = live
        self.base = start
        self.anchor = start
    }

    /// A new connection (device) begins: the next sample re-anchors to the receive time.
    mutating func beginSegment(receivedAt now: Int64) {
        if live {
            base = now
            fresh = true
        }
    }

    mutating func gestureBreak() { pendingGap += gestureGapMs }

    /// Epoch times before this (2000-01-01) or more than a day after the receive time are glitches.
    static let earliestEpochMs: Double = 946_684_800_000
    static let latestAheadMs: Double = 86_400_000

    /// Why a stream time cannot be a sample's time (a glitch such as a +1e15 ms jump); nil when it can.
    /// Such a reading is quarantined; the session around it goes on.
    func problem(with reading: RawReading, receivedAt now: Int64) -> String? {
        guard let st = reading.streamTimeMs else { return nil }
        if !st.isFinite || st < 0 { return "stream time \(st) ms is not a time" }
        if st > 1e11, st < Self.earliestEpochMs || st > Double(max(now, base)) + Self.latestAheadMs {
            return "stream time \(Int64(st)) ms jumps outside any plausible date (a clock glitch)"
        }
        return nil
    }

    mutating func time(for reading: RawReading, receivedAt now: Int64) -> (t: Int64, derived: Bool) {
        if let st = reading.streamTimeMs {
            let t = st > 1e11 ? Int64(st.rounded()) : base + Int64(st.rounded())
            lastT = t
            return (t, false)
        }
        if fresh || pendingGap > 0 {
            let next = lastT == Int64.min ? anchor : lastT + Int64(periodMs.rounded()) + pendingGap
            anchor = live && fresh ? max(now, next) : next
            index = 0
            fresh = false
            pendingGap = 0
        }
        var t = anchor + Int64((Double(index) * periodMs).rounded())
        if live, now - t > 1000 {
            anchor = now
            index = 0
            t = now
        }
        index += 1
        lastT = t
        return (t, true)
    }
}
