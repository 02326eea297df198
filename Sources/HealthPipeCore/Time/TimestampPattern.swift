/// A timestamp layout compiled once and applied to raw bytes, without Foundation formatters.
///
/// Tokens: `%Y` year, `%y` two-digit year (2000+), `%m` month, `%d` day, `%H` hour (0–23),
/// `%I` hour (1–12, with `%p`), `%M` minute, `%S` second (optional `.fraction` is skipped),
/// `%p` AM/PM, `%z` offset (`Z`, `±HH`, `±HHMM`, `±HH:MM`), `%%` a percent sign.
/// Numeric fields accept one or two digits (Clarity writes `0:01:47`). A literal `T` or space
/// between fields matches either, since exports mix them. `epoch` and `epoch_ms` read Unix times.
public struct TimestampPattern: Sendable, Hashable, CustomStringConvertible {
    enum Token: Hashable, Sendable {
        case year4, year2, month, day, hour24, hour12, minute, second, ampm, offset
        case literal(UInt8)
        case dateTimeSeparator
    }

    let tokens: [Token]
    let epochScale: Int64?  // nil: calendar pattern; 1 or 1000: epoch seconds / milliseconds
    /// `%Y-%m-%dT%H:%M:%S` (Clarity, Nightscout, most exports): its 19-byte form is read at fixed
    /// positions, a tenth of the general walk's cost; any other form takes the walk.
    let isISO: Bool
    public let description: String

    public init(_ pattern: String) throws { try self.init(pattern, fixedPositions: true) }

    /// `fixedPositions: false` turns the ISO fast path off (tests compare it with the walk).
    init(_ pattern: String, fixedPositions: Bool) throws {
        description = pattern
        switch pattern {
        case "epoch", "epoch_s": tokens = []; epochScale = 1; isISO = false; return
        case "epoch_ms": tokens = []; epochScale = 1000; isISO = false; return
        default: epochScale = nil
        }
        var out: [Token] = []
        var bytes = Array(pattern.utf8)[...]
        while let c = bytes.popFirst() {
            if c == UInt8(ascii: "%") {
                guard let t = bytes.popFirst() else { throw TimestampPatternError(pattern: pattern, reason: "ends with %") }
                switch t {
                case UInt8(ascii: "Y"): out.append(.year4)
                case UInt8(ascii: "y"): out.append(.year2)
                case UInt8(ascii: "m"): out.append(.month)
                case UInt8(ascii: "d"): out.append(.day)
                case UInt8(ascii: "H"): out.append(.hour24)
                case UInt8(ascii: "I"): out.append(.hour12)
                case UInt8(ascii: "M"): out.append(.minute)
                case UInt8(ascii: "S"): out.append(.second)
                case UInt8(ascii: "p"): out.append(.ampm)
                case UInt8(ascii: "z"): out.append(.offset)
                case UInt8(ascii: "%"): out.append(.literal(c))
                default:
                    throw TimestampPatternError(pattern: pattern, reason: "unknown token %\(Character(Unicode.Scalar(t)))")
                }
            } else if c == UInt8(ascii: "T") || c == UInt8(ascii: " ") {
                out.append(.dateTimeSeparator)
            } else {
                out.append(.literal(c))
            }
        }
        if !out.contains(.year4) && !out.contains(.year2) {
            throw TimestampPatternError(pattern: pattern, reason: "has no year (%Y or %y)")
        }
        tokens = out
        let dash = Token.literal(UInt8(ascii: "-")), colon = Token.literal(UInt8(ascii: ":"))
        isISO = fixedPositions && out == [.year4, dash, .month, dash, .day, .dateTimeSeparator, .hour24, colon, .minute, colon, .second]
    }

    /// Parses `bytes` completely (surrounding spaces allowed); nil when it does not match or a field is out of range.
    public func parse(_ raw: UnsafeRawBufferPointer) -> ParsedTimestamp? {
        var lo = 0, hi = raw.count
        while lo < hi, raw[lo] == 0x20 { lo += 1 }
        while hi > lo, raw[hi - 1] == 0x20 || raw[hi - 1] == 0x0D { hi -= 1 }
        if let scale = epochScale { return parseEpoch(raw, lo, hi, scale) }
        // Any byte out of place (or a field out of range) and the walk decides.
        if isISO, hi - lo == 19, let seconds = CivilDate.seconds(isoDateTime: UnsafeRawBufferPointer(rebasing: raw[lo..<hi])) {
            return ParsedTimestamp(seconds: seconds, offset: nil)
        }

        var i = lo
        var year = -1, month = 1, day = 1, hour = 0, minute = 0, second = 0
        var pm: Bool? = nil, twelveHour = false
        var offset: Int32? = nil

        @inline(__always) func digits(max: Int) -> Int? {
            var v = 0, n = 0
            while n < max, i < hi {
                let d = raw[i] &- 0x30
                if d > 9 { break }
                v = v * 10 + Int(d); i += 1; n += 1
            }
            return n == 0 ? nil : v
        }

        for t in tokens {
            switch t {
            case .year4: guard let v = digits(max: 4) else { return nil }; year = v
            case .year2: guard let v = digits(max: 2) else { return nil }; year = 2000 + v
            case .month: guard let v = digits(max: 2) else { return nil }; month = v
            case .day: guard let v = digits(max: 2) else { return nil }; day = v
            case .hour24: guard let v = digits(max: 2) else { return nil }; hour = v
            case .hour12: guard let v = digits(max: 2) else { return nil }; hour = v; twelveHour = true
            case .minute: guard let v = digits(max: 2) else { return nil }; minute = v
            case .second:
                guard let v = digits(max: 2) else { return nil }
                second = v
                if i < hi, raw[i] == UInt8(ascii: ".") || raw[i] == UInt8(ascii: ",") {
                    i += 1
                    while i < hi, raw[i] &- 0x30 <= 9 { i += 1 }
                }
            case .ampm:
                while i < hi, raw[i] == 0x20 { i += 1 }
                guard i + 1 < hi else { return nil }
                let a = raw[i] | 0x20, m = raw[i + 1] | 0x20
                guard m == UInt8(ascii: "m") else { return nil }
                if a == UInt8(ascii: "a") { pm = false } else if a == UInt8(ascii: "p") { pm = true } else { return nil }
                i += 2
            case .offset:
                while i < hi, raw[i] == 0x20 { i += 1 }
                guard i < hi else { return nil }
                if raw[i] == UInt8(ascii: "Z") { offset = 0; i += 1; continue }
                let sign: Int32
                if raw[i] == UInt8(ascii: "+") { sign = 1 } else if raw[i] == UInt8(ascii: "-") { sign = -1 } else { return nil }
                i += 1
                guard let hh = digits(max: 2) else { return nil }
                var mm = 0
                if i < hi, raw[i] == UInt8(ascii: ":") { i += 1 }
                if let v = digits(max: 2) { mm = v }
                // Real offsets lie within ±18:00 (ISO 8601) with minutes below 60: +01:60 is no offset.
                guard mm < 60, hh * 60 + mm <= 18 * 60 else { return nil }
                offset = sign * Int32(hh * 3600 + mm * 60)
            case .literal(let c):
                guard i < hi, raw[i] == c else { return nil }
                i += 1
            case .dateTimeSeparator:
                guard i < hi, raw[i] == UInt8(ascii: "T") || raw[i] == 0x20 else { return nil }
                i += 1
                while i < hi, raw[i] == 0x20 { i += 1 }
            }
        }
        guard i == hi, year >= 0 else { return nil }
        if twelveHour {
            guard let isPM = pm, (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (isPM ? 12 : 0)
        }
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month),
              hour < 24, minute < 60, second < 61 else { return nil }
        let local = CivilDate.days(year: year, month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + min(second, 59))
        return ParsedTimestamp(seconds: local, offset: offset)
    }

    private func parseEpoch(_ raw: UnsafeRawBufferPointer, _ lo: Int, _ hi: Int, _ scale: Int64) -> ParsedTimestamp? {
        var i = lo, neg = false, v: Int64 = 0, n = 0
        if i < hi, raw[i] == UInt8(ascii: "-") { neg = true; i += 1 }
        while i < hi, raw[i] &- 0x30 <= 9, n < 18 { v = v * 10 + Int64(raw[i] &- 0x30); i += 1; n += 1 }
        if i < hi, raw[i] == UInt8(ascii: ".") { i += 1; while i < hi, raw[i] &- 0x30 <= 9 { i += 1 } }
        guard n > 0, i == hi else { return nil }
        let s = CivilDate.floorDiv(neg ? -v : v, scale)
        return ParsedTimestamp(seconds: s, offset: 0)
    }

    public func parse(_ text: String) -> ParsedTimestamp? {
        var t = text
        return t.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }
}

/// A parsed timestamp: wall-clock seconds since the epoch, and the offset if the text carried one
/// (then `seconds - offset` is UTC). Without an offset the time is naive local time.
public struct ParsedTimestamp: Hashable, Sendable {
    public var seconds: Int64
    public var offset: Int32?
    public init(seconds: Int64, offset: Int32?) {
        self.seconds = seconds
        self.offset = offset
    }
}

public struct TimestampPatternError: Error, CustomStringConvertible {
    public var pattern: String
    public var reason: String
    public var description: String { "timestamp pattern '\(pattern)' \(reason)" }
}
