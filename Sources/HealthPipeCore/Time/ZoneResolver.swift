import Foundation

/// How to place a local time that occurs twice (DST fall-back).
public enum AmbiguousTimePolicy: String, Sendable, Decodable, CaseIterable {
    /// Follow the file's clock (the default for files): readings of the repeated hour take the earlier
    /// instant until the clock goes back inside that hour, and the later instant from there on, so
    /// both passes through the hour keep their own instants (files listed newest first the other way
    /// round). A single time without context is read as `earlier`.
    case fileOrder = "file-order"
    /// The first occurrence (still on summer time).
    case earlier
    /// The second occurrence (already on standard time).
    case later
    /// Reject the row (it is quarantined with the reason).
    case error
}

/// How to place a local time that never happened (DST spring-forward gap).
public enum NonexistentTimePolicy: String, Sendable, Decodable, CaseIterable {
    /// Move it forward by the length of the gap (02:30 in a 02:00→03:00 gap becomes 03:30).
    case shiftForward = "shift-forward"
    /// Reject the row.
    case error
}

public enum ZoneResolutionError: Error, CustomStringConvertible, Sendable {
    case ambiguous(local: Int64, zone: String)
    case nonexistent(local: Int64, zone: String)
    /// A time in a spring-forward gap in a file listed newest first (`LocalTimePlacer`): the device
    /// clock had not moved forward, and the readings after it were already placed on the new offset.
    case gapInNewestFirstFile(local: Int64, zone: String)

    public var description: String {
        switch self {
        case .ambiguous(let l, let z):
            return "local time \(CivilDate.isoDateTime(seconds: l)) occurs twice in \(z) (DST change); set ambiguous_time: earlier|later"
        case .nonexistent(let l, let z):
            return "local time \(CivilDate.isoDateTime(seconds: l)) does not exist in \(z) (DST gap); set nonexistent_time: shift-forward"
        case .gapInNewestFirstFile(let l, let z):
            return "local time \(CivilDate.isoDateTime(seconds: l)) does not exist in \(z) (DST gap): the device clock had not moved "
                + "forward, and in a file listed newest first the readings after it already took the new offset, so its place is unknown"
        }
    }
}

/// Places naive local timestamps in UTC for one IANA zone or fixed offset.
/// Most days have one offset all day: those are cached per local day, so the per-row cost is a
/// dictionary lookup; only the days around a transition are resolved reading by reading.
public struct ZoneResolver: Sendable {
    public struct Resolved: Sendable, Hashable {
        public var utc: Int64
        public var offset: Int32
        public var flags: RecordFlags
        public init(utc: Int64, offset: Int32, flags: RecordFlags) {
            self.utc = utc
            self.offset = offset
            self.flags = flags
        }
    }

    public let zone: TimeZone
    public let ambiguous: AmbiguousTimePolicy
    public let nonexistent: NonexistentTimePolicy
    private var uniformDays: [Int64: Int32?] = [:]
    private var lastDay: Int64 = .min
    private var lastOffset: Int32? = nil

    public init(zone: TimeZone, ambiguous: AmbiguousTimePolicy = .earlier, nonexistent: NonexistentTimePolicy = .shiftForward) {
        self.zone = zone
        self.ambiguous = ambiguous
        self.nonexistent = nonexistent
    }

    /// Parses an IANA name (`Europe/London`), `UTC`, or a fixed offset (`+02:00`, `-0500`).
    public static func timeZone(named name: String) -> TimeZone? {
        let n = name.trimmingCharacters(in: .whitespaces)
        if n.uppercased() == "UTC" || n == "Z" { return TimeZone(secondsFromGMT: 0) }
        if let first = n.first, first == "+" || first == "-" {
            guard let p = ParsedTimestamp.offsetSeconds(n) else { return nil }
            return TimeZone(secondsFromGMT: Int(p))
        }
        guard n.contains("/") || n == "GMT" else { return nil }
        return TimeZone(identifier: n)
    }

    @inline(__always)
    private func offset(atUTC t: Int64) -> Int32 {
        Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))))
    }

    /// UTC instant and local offset for a naive local time (seconds since the epoch, wall clock).
    public mutating func resolve(local: Int64) throws -> Resolved { try resolve(local: local, ambiguous: ambiguous) }

    /// As `resolve(local:)`, with the policy for a time that occurs twice given for this call.
    public mutating func resolve(local: Int64, ambiguous policy: AmbiguousTimePolicy) throws -> Resolved {
        let day = CivilDate.floorDiv(local, 86_400)
        if day != lastDay {
            lastDay = day
            if let cached = uniformDays[day] { lastOffset = cached } else {
                lastOffset = uniformOffset(localDay: day)
                if uniformDays.count > 4096 { uniformDays.removeAll(keepingCapacity: true) }
                uniformDays[day] = lastOffset
            }
        }
        if let o = lastOffset { return Resolved(utc: local - Int64(o), offset: o, flags: []) }
        return try resolveNearTransition(local: local, ambiguous: policy)
    }

    /// The day's single offset, or nil if a transition falls anywhere near the local day.
    private func uniformOffset(localDay: Int64) -> Int32? {
        let from = localDay * 86_400 - 15 * 3600, to = localDay * 86_400 + 86_400 + 15 * 3600
        let o = offset(atUTC: from)
        guard o == offset(atUTC: to) else { return nil }
        if let next = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(from))),
           next.timeIntervalSince1970 <= Double(to) {
            return nil
        }
        return o
    }

    private func resolveNearTransition(local: Int64, ambiguous: AmbiguousTimePolicy) throws -> Resolved {
        let before = offset(atUTC: local - 86_400), after = offset(atUTC: local + 86_400)
        var valid: [Int32] = []
        for c in Set([before, after]) where offset(atUTC: local - Int64(c)) == c { valid.append(c) }
        if valid.count == 1 { return Resolved(utc: local - Int64(valid[0]), offset: valid[0], flags: []) }
        if valid.count >= 2 {
            switch ambiguous {
            case .error: throw ZoneResolutionError.ambiguous(local: local, zone: zone.identifier)
            case .earlier, .fileOrder:
                let o = valid.max()!  // the larger offset gives the earlier instant
                return Resolved(utc: local - Int64(o), offset: o, flags: .ambiguousLocalTime)
            case .later:
                let o = valid.min()!
                return Resolved(utc: local - Int64(o), offset: o, flags: .ambiguousLocalTime)
            }
        }
        if nonexistent == .error { throw ZoneResolutionError.nonexistent(local: local, zone: zone.identifier) }
        // In a gap: read the wall time with the offset in force before the jump, which lands past it.
        let utc = local - Int64(before)
        return Resolved(utc: utc, offset: offset(atUTC: utc), flags: .nonexistentLocalTime)
    }
}

extension ParsedTimestamp {
    /// `+02:00`, `-0500`, `+05` → seconds east of UTC.
    public static func offsetSeconds(_ text: String) -> Int32? {
        guard let p = try? TimestampPattern("%Y%z") else { return nil }
        return p.parse("1970" + text)?.offset
    }
}
