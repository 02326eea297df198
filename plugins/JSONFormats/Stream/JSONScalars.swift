import Foundation
import HealthPipeCore

/// Scalars read straight from a value's bytes: numbers, epoch and ISO 8601 times, decoded strings.
enum JSONScalars {
    /// Milliseconds since the epoch from a number or a string holding one, as uploaders write it:
    /// digits (`1557405318571`), a fraction (`1778284500105.5488`, dropped), an exponent
    /// (`1.557405318571e+12`, the 600-series Android uploader's mongoexport). The scale is decided
    /// by size: below 1e11 the value is seconds (as milliseconds it would be before 3 March 1973),
    /// from 1e14 microseconds, from 1e17 nanoseconds.
    static func epochMilliseconds(_ b: UnsafeRawBufferPointer) -> Int64? {
        guard let raw = epochNumber(b), raw >= 0 else { return nil }
        switch raw {
        case ..<1e11: return Int64((raw * 1000).rounded(.down))
        case ..<1e14: return Int64(raw.rounded(.down))
        case ..<1e17: return Int64((raw / 1000).rounded(.down))
        case ..<9e18: return Int64((raw / 1_000_000).rounded(.down))
        default: return nil
        }
    }

    /// The number an epoch field holds: whole digits exactly (no Double rounding for 13-digit
    /// milliseconds), anything else (fraction, exponent) through `double`.
    private static func epochNumber(_ b: UnsafeRawBufferPointer) -> Double? {
        var i = 0, v: Int64 = 0
        while i < b.count, (b[i] &- 0x30) <= 9, i < 18 { v = v * 10 + Int64(b[i] &- 0x30); i += 1 }
        if i > 0, i == b.count { return Double(v) }
        return DecimalText.double(b)
    }

    /// An ISO 8601 / RFC 3339 date-time: `2026-04-05T20:30:29.000Z`, `2014-07-19T10:49:15-07:00`,
    /// `+0100`, a space instead of `T`, any number of fraction digits, or no offset (naive local time).
    /// Milliseconds are UTC when `offset` is set, wall clock otherwise.
    static func isoTime(_ b: UnsafeRawBufferPointer) -> (milliseconds: Int64, offset: Int32?)? {
        let n = b.count
        guard let seconds = CivilDate.seconds(isoDateTime: b) else { return nil }
        @inline(__always) func num(_ at: Int, _ len: Int) -> Int? {
            var v = 0
            for k in at..<(at + len) {
                let d = b[k] &- 0x30
                guard d <= 9 else { return nil }
                v = v * 10 + Int(d)
            }
            return v
        }
        var i = 19, ms = 0
        if i < n, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
            i += 1
            var scale = 100
            while i < n, (b[i] &- 0x30) <= 9 { ms += Int(b[i] &- 0x30) * scale; scale /= 10; i += 1 }
        }
        var offset: Int32? = nil
        if i < n {
            let c = b[i]
            if c == UInt8(ascii: "Z") || c == UInt8(ascii: "z") {
                offset = 0
                i += 1
            } else if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                guard i + 3 <= n, let oh = num(i + 1, 2) else { return nil }
                var j = i + 3, om = 0
                if j < n, b[j] == UInt8(ascii: ":") { j += 1 }
                if j + 2 <= n, let m = num(j, 2) { om = m; j += 2 }
                guard oh < 24, om < 60 else { return nil }
                offset = Int32((c == UInt8(ascii: "-") ? -1 : 1) * (oh * 3600 + om * 60))
                i = j
            }
        }
        guard i == n else { return nil }
        let local = seconds * 1000 + Int64(ms)
        return (local - Int64(offset ?? 0) * 1000, offset)
    }

    /// Java's `Date.toString()` as Android uploaders write `dateString` (600-series uploader, old
    /// xDrip): `Thu May 09 14:35:18 GMT+02:00 2019`, `Sun May 26 12:09:11 CEST 2019`. The wall-clock
    /// time in milliseconds, and the offset when the zone is written as `GMT±hh:mm` / `UTC±hh:mm`
    /// (a zone abbreviation such as CEST gives none: the caller compares the wall clock with the
    /// entry's own instant instead).
    static func javaDate(_ b: UnsafeRawBufferPointer) -> (wallMilliseconds: Int64, offset: Int32?)? {
        let parts = String(decoding: b, as: UTF8.self).split(separator: " ")
        guard parts.count == 6, let month = monthNames.firstIndex(of: parts[1].lowercased()), let day = Int(parts[2]),
              let year = Int(parts[5]), (1...31).contains(day), day <= CivilDate.daysInMonth(year: year, month: month + 1) else { return nil }
        let hms = parts[3].split(separator: ":").compactMap { Int($0) }
        guard hms.count == 3, hms[0] < 24, hms[1] < 60, hms[2] < 61 else { return nil }
        let wall = (CivilDate.days(year: year, month: month + 1, day: day) * 86_400 + Int64(hms[0] * 3600 + hms[1] * 60 + min(hms[2], 59))) * 1000
        var offset: Int32? = nil
        let zone = parts[4]
        if zone == "GMT" || zone == "UTC" { offset = 0 }
        if zone.count > 3, zone.hasPrefix("GMT") || zone.hasPrefix("UTC") {
            let sign: Int32 = zone.dropFirst(3).first == "-" ? -1 : 1
            let hm = zone.dropFirst(4).split(separator: ":").compactMap { Int32($0) }
            if hm.count == 2, hm[0] < 24, hm[1] < 60 { offset = sign * (hm[0] * 3600 + hm[1] * 60) }
        }
        return (wall, offset)
    }

    private static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Decodes a string's escapes (`\n`, `\"`, `\u00e9`, surrogate pairs).
    static func unescape(_ b: UnsafeRawBufferPointer) -> String {
        String(decoding: unescapedBytes(b), as: UTF8.self)
    }

    /// The UTF-8 a string's escaped bytes stand for.
    static func unescapedBytes(_ b: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= b.count else { return nil }
            var v: UInt32 = 0
            for k in at..<(at + 4) {
                let c = b[k]
                let d: UInt8
                switch c {
                case 0x30...0x39: d = c - 0x30
                case 0x41...0x46: d = c - 0x37
                case 0x61...0x66: d = c - 0x57
                default: return nil
                }
                v = v << 4 | UInt32(d)
            }
            return v
        }
        while i < b.count {
            let c = b[i]
            guard c == 0x5C, i + 1 < b.count else { out.append(c); i += 1; continue }
            let e = b[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(i) else { out.append(contentsOf: "\u{FFFD}".utf8); continue }
                i += 4
                if (0xD800..<0xDC00).contains(scalar), i + 6 <= b.count, b[i] == 0x5C, b[i + 1] == UInt8(ascii: "u"),
                   let low = hex4(i + 2), (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                out.append(contentsOf: String(UnicodeScalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
            default: out.append(e)
            }
        }
        return out
    }
}
