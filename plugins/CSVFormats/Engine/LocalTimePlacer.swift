import Foundation
import HealthPipeCore

/// Places a parsed timestamp in UTC: explicit offsets are used as they are; naive local times go
/// through the configured zone, and without one the file is refused (never a silent UTC guess).
/// Under `ambiguous_time: file-order` (the default) it follows the file's clock through a DST
/// fall-back: the repeated hour maps to its first instant until the clock goes back inside it, and
/// to the second from there on, so readings of the two passes never land on the same instant.
struct LocalTimePlacer {
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
    /// A step back inside the repeated hour shorter than this is jitter, not the clock going back.
    static let backStepSeconds: Int64 = 120

    init(zone: TimeZone?, ambiguous: AmbiguousTimePolicy, nonexistent: NonexistentTimePolicy, file: String, format: String) {
        resolver = zone.map { ZoneResolver(zone: $0, ambiguous: ambiguous, nonexistent: nonexistent) }
        followsFile = ambiguous == .fileOrder
        self.file = file
        self.format = format
    }

    /// Throws `InputError` (the whole file) when a zone is needed and missing, or a `ZoneResolutionError`
    /// (the row) when the policy rejects a DST-ambiguous or nonexistent time.
    @inline(__always)
    mutating func place(_ t: ParsedTimestamp, line: Int64) throws -> ZoneResolver.Resolved {
        if let o = t.offset { return .init(utc: t.seconds - Int64(o), offset: o, flags: []) }
        guard resolver != nil else {
            throw InputError(file: file, line: line, reason: "\(format) timestamps are local time without a zone: "
                             + "pass --timezone (e.g. --timezone Europe/London) or set 'timezone:' in the pipeline")
        }
        guard followsFile else { return try resolver!.resolve(local: t.seconds) }
        let local = t.seconds
        var placed = try resolver!.resolve(local: local, ambiguous: secondPass ? .later : .earlier)
        if placed.flags.contains(.ambiguousLocalTime) {
            let before = secondPass
            if !inRepeatedHour {
                inRepeatedHour = true
                secondPass = direction < 0  // a newest-first file meets the later pass first
            } else if let last = lastLocal {
                if direction >= 0, local < last - Self.backStepSeconds { secondPass = true }
                if direction < 0, local > last + Self.backStepSeconds { secondPass = false }
            }
            if secondPass != before { placed = try resolver!.resolve(local: local, ambiguous: secondPass ? .later : .earlier) }
        } else {
            inRepeatedHour = false
            secondPass = false
            if let last = lastLocal, local != last { direction = max(-16, min(16, direction + (local > last ? 1 : -1))) }
        }
        lastLocal = local
        return placed
    }
}
