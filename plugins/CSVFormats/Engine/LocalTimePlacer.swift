import Foundation
import HealthPipeCore

/// Places a parsed timestamp in UTC: explicit offsets are used as they are; naive local times go
/// through the configured zone, and without one the file is refused (never a silent UTC guess).
/// Under `ambiguous_time: file-order` (the default) it follows the file's clock through a DST
/// fall-back: the repeated hour maps to its first instant until the clock goes back inside it, and
/// to the second from there on, so readings of the two passes never land on the same instant.
/// A file sorted by its local clock (LibreView's exports, which opt in with `pairsEqualClockTimes`) writes
/// the two passes side by side instead:
/// while the clock has not gone back inside the hour, a row with the previous row's clock time is
/// the other pass of that pair (the later instant in an oldest-first file, the earlier in a
/// newest-first one), and the next clock time returns to the pass the hour began on.
///
/// A DST spring-forward gap works the same way: a file that shows a time in the gap (02:30 on the
/// night 02:00 became 03:00) proves its clock did not move forward. That time is read with the offset
/// before the jump, and so are the file's next times, until its clock steps forward by more than the
/// gap (the owner set it) or goes back: 02:30 and the reading an hour later, 03:30, are an hour apart, never one
/// instant. A newest-first file meets the unswitched readings after their successors were placed on the
/// new offset, so there a time in the gap is refused with the reason (the row is quarantined).
public struct LocalTimePlacer {
    private var resolver: ZoneResolver?
    let file: String
    let format: String
    private let followsFile: Bool
    /// The previous row's local time, and which way the file's clock mostly runs (+ ascending).
    private var lastLocal: Int64?
    private var direction = 0
    /// Inside a repeated hour: whether the rows are on its second pass (the later instants).
    private var inRepeatedHour = false
    private var secondPass = false
    /// Whether the clock went back inside the repeated hour (the passes follow one another), and
    /// whether the previous row was the second of a pair of equal clock times (placed on the other pass).
    private var clockWentBack = false
    private var previousWasPairSecond = false
    /// Only a format known to sort by the local clock reads equal clock times as the two passes: other
    /// formats write several rows at one instant (a bolus and its wizard row), which must stay one instant.
    private let pairsEqualClockTimes: Bool
    /// A step back inside the repeated hour shorter than this is jitter, not the clock going back.
    static let backStepSeconds: Int64 = 120
    /// After a time in a spring-forward gap: the offset the file's clock still keeps, and the jump it skipped.
    private var unswitched: (offset: Int32, jump: Int64)?

    public init(zone: TimeZone?, ambiguous: AmbiguousTimePolicy, nonexistent: NonexistentTimePolicy, file: String, format: String,
         pairsEqualClockTimes: Bool = false) {
        self.pairsEqualClockTimes = pairsEqualClockTimes
        resolver = zone.map { ZoneResolver(zone: $0, ambiguous: ambiguous, nonexistent: nonexistent) }
        followsFile = ambiguous == .fileOrder
        self.file = file
        self.format = format
    }

    /// Throws `InputError` (the whole file) when a zone is needed and missing, or a `ZoneResolutionError`
    /// (the row) when the policy rejects a DST-ambiguous or nonexistent time.
    @inline(__always)
    public mutating func place(_ t: ParsedTimestamp, line: Int64) throws -> ZoneResolver.Resolved {
        if let o = t.offset { return .init(utc: t.seconds - Int64(o), offset: o, flags: []) }
        guard resolver != nil else {
            throw InputError(file: file, line: line, reason: "\(format) timestamps are local time without a zone: "
                             + "pass --timezone (e.g. --timezone Europe/London) or set 'timezone:' in the pipeline")
        }
        guard followsFile else { return try resolver!.resolve(local: t.seconds) }
        let local = t.seconds
        if let u = unswitched {
            // A step of at most the jump would put this time, on the zone's offset, at or before the
            // previous reading: the clock has not been set forward yet.
            if let last = lastLocal, local >= last, local - last <= u.jump {
                lastLocal = local
                return .init(utc: local - Int64(u.offset), offset: u.offset, flags: [])
            }
            unswitched = nil  // the clock was set forward, or the file went back: the zone's offsets again
        }
        var placed = try resolver!.resolve(local: local, ambiguous: secondPass ? .later : .earlier)
        if placed.flags.contains(.ambiguousLocalTime) {
            let before = secondPass
            var pass = secondPass
            if !inRepeatedHour {
                inRepeatedHour = true
                secondPass = direction < 0  // a newest-first file meets the later pass first
                pass = secondPass
                clockWentBack = false
                previousWasPairSecond = false
            } else if let last = lastLocal {
                if direction >= 0, local < last - Self.backStepSeconds { secondPass = true; clockWentBack = true }
                if direction < 0, local > last + Self.backStepSeconds { secondPass = false; clockWentBack = true }
                pass = secondPass
                // Sorted by the clock: the second row of an equal clock time is the pair's other pass.
                if pairsEqualClockTimes, !clockWentBack, local == last, !previousWasPairSecond {
                    pass = !secondPass
                    previousWasPairSecond = true
                } else {
                    previousWasPairSecond = false
                }
            }
            if pass != before { placed = try resolver!.resolve(local: local, ambiguous: pass ? .later : .earlier) }
        } else if placed.flags.contains(.nonexistentLocalTime) {
            // The gap reading is placed with the offset before the jump (local − utc).
            guard direction >= 0 else { throw ZoneResolutionError.gapInNewestFirstFile(local: local, zone: resolver!.zone.identifier) }
            let before = Int32(local - placed.utc)
            unswitched = (before, Int64(placed.offset - before))
            // Stored with that offset too, as the readings after it on the same clock are: each keeps
            // its own local time (the zone's new offset would put it on the next reading's minute).
            placed = .init(utc: placed.utc, offset: before, flags: placed.flags)
        } else {
            inRepeatedHour = false
            secondPass = false
            if let last = lastLocal, local != last { direction = max(-16, min(16, direction + (local > last ? 1 : -1))) }
        }
        lastLocal = local
        return placed
    }
}

