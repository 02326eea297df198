import Foundation

/// The UTC offset of an IANA zone at UTC instants, remembered per 15-minute bucket (every DST
/// change falls on one), so readings in time order cost a comparison, not a time-zone lookup.
package struct ZoneOffsets {
    let zone: TimeZone
    private var bucket: Int64 = .min
    private var offset: Int32 = 0

    package init(zone: TimeZone) { self.zone = zone }

    package mutating func offset(atUTC seconds: Int64) -> Int32 {
        let b = seconds >= 0 ? seconds / 900 : (seconds - 899) / 900
        if b != bucket {
            bucket = b
            offset = Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        }
        return offset
    }
}
