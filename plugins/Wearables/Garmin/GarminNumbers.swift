import CSVFormats
import HealthPipeCore

/// How Garmin Connect writes numbers and durations in `Activities.csv`, whatever the header's language
/// (checked on 2,857 rows of real exports in English, Danish, German, Portuguese and Spanish):
/// `.` is the decimal point, `,` groups thousands (`"1,825"`), `--` is "no value", and durations are
/// `h:mm:ss` or `m:ss` with an optional fraction (`01:00:08`, `41:06`, `4:47.8`, `00:05:35.4`).
enum GarminNumbers {
    /// A cell's number; nil for `--` or an empty cell; throws for anything else that is not Garmin's
    /// layout (`5,02` would be a decimal comma Garmin does not write: refused, never read as 502).
    /// `whole` tells a number written without a decimal point (a distance in metres or yards).
    static func number(_ raw: UnsafeRawBufferPointer, _ column: String) throws -> (value: Double, whole: Bool)? {
        let b = ByteText.trim(raw)
        if isEmpty(b) { return nil }
        var i = b[0] == UInt8(ascii: "-") ? 1 : 0
        var digits = 0, group = 0, grouped = false
        while i < b.count, b[i] != UInt8(ascii: ".") {
            if b[i] &- 0x30 < 10 {
                digits += 1; group += 1
            } else if b[i] == UInt8(ascii: ","), digits > 0, grouped ? group == 3 : group <= 3 {
                grouped = true; group = 0
            } else { throw Bad(column, b, "a number as Garmin writes them (1,234.5 or --)") }
            i += 1
        }
        let whole = i == b.count
        guard digits > 0, !grouped || group == 3, whole || i + 1 < b.count else {
            throw Bad(column, b, "a number as Garmin writes them (1,234.5 or --)")
        }
        let value = grouped ? withoutCommas(b) : DecimalText.double(b)
        guard let value else { throw Bad(column, b, "a number as Garmin writes them (1,234.5 or --)") }
        return (value, whole)
    }

    /// A duration in seconds (`h:mm:ss` or `m:ss`, the seconds with an optional fraction); nil for `--`
    /// or an empty cell; throws for anything else.
    static func seconds(_ raw: UnsafeRawBufferPointer, _ column: String) throws -> Double? {
        let b = ByteText.trim(raw)
        if isEmpty(b) { return nil }
        var total = 0, part = 0, partDigits = 0, parts = 0, i = 0
        while i < b.count, b[i] != UInt8(ascii: ".") {
            if b[i] &- 0x30 < 10 {
                part = part * 10 + Int(b[i] &- 0x30); partDigits += 1
                guard partDigits <= 6 else { throw Bad(column, b, "a duration as Garmin writes them (h:mm:ss or m:ss, --)") }
            } else if b[i] == UInt8(ascii: ":"), partDigits > 0, parts == 0 || (partDigits == 2 && part < 60), parts < 2 {
                total = total * 60 + part; part = 0; partDigits = 0; parts += 1
            } else { throw Bad(column, b, "a duration as Garmin writes them (h:mm:ss or m:ss, --)") }
            i += 1
        }
        guard parts >= 1, partDigits == 2, part < 60 else {
            throw Bad(column, b, "a duration as Garmin writes them (h:mm:ss or m:ss, --)")
        }
        var fraction = 0.0
        if i < b.count {  // ".4": the seconds' fraction
            guard let f = DecimalText.double(UnsafeRawBufferPointer(rebasing: b[i...])), i + 1 < b.count, f < 1 else {
                throw Bad(column, b, "a duration as Garmin writes them (h:mm:ss or m:ss, --)")
            }
            fraction = f
        }
        return Double(total * 60 + part) + fraction
    }

    private static func isEmpty(_ b: UnsafeRawBufferPointer) -> Bool {
        b.isEmpty || (b.count == 2 && b[0] == UInt8(ascii: "-") && b[1] == UInt8(ascii: "-"))
    }

    /// `1,234.5` read without its group separators.
    private static func withoutCommas(_ b: UnsafeRawBufferPointer) -> Double? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: b.count) { buf in
            var n = 0
            for c in b where c != UInt8(ascii: ",") { buf[n] = c; n += 1 }
            return DecimalText.double(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buf)[0..<n]))
        }
    }

    struct Bad: Error, CustomStringConvertible {
        let description: String
        init(_ column: String, _ b: UnsafeRawBufferPointer, _ what: String) {
            description = "\(column) '\(EchoText.quote(b))' is not \(what)"
        }
    }
}
