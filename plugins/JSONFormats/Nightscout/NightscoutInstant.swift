/// The instant a Nightscout date value names, read as the `nightscout` source reads it (epoch
/// milliseconds or seconds as a number or digits, ISO 8601 with or without an offset, Java's
/// `Date.toString()` with a GMT offset): for `healthpipe serve`, which answers `find[date][$gte]`
/// and `find[created_at][$lte]` and names uploaded documents by their time, so that it reads every
/// date the mapping reads and no other. A time without an offset is taken as UTC.
package enum NightscoutInstant {
    /// UTC milliseconds, or nil when the text is no date.
    package static func milliseconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { utf8 in
            let b = UnsafeRawBufferPointer(utf8)
            if b.count >= 19, b[4] == UInt8(ascii: "-") { return JSONScalars.isoTime(b)?.milliseconds }
            if let ms = JSONScalars.epochMilliseconds(b) { return ms }
            guard let j = JSONScalars.javaDate(b), let offset = j.offset else { return nil }
            return j.wallMilliseconds - Int64(offset) * 1000
        }
    }

    /// UTC milliseconds of a number as uploaders write `date` (below 1e11: seconds).
    package static func milliseconds(_ number: Double) -> Int64? {
        milliseconds(number.rounded(.down) == number && abs(number) < 9e15 ? String(Int64(number)) : String(number))
    }
}
