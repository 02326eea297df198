/// CareLink's separate Date and Time columns: `2021/07/25` (web export), `25.07.2021` or `25-07-2021`
/// (European), `07/25/21` (older US); `00:32:50`. A year-first date needs no order; otherwise the
/// separator tells it: `/` is the US month-first form, `.` and `-` are day-first.
enum CareLinkDateTime {
    static func localSeconds(date: UnsafeRawBufferPointer, time: UnsafeRawBufferPointer) -> Int64? {
        guard let g = NumericDateTime.dateGroups(date), g.end == date.count else { return nil }
        let order: DateOrder = g.separator == UInt8(ascii: "/") ? .mdy : .dmy
        guard let d = NumericDateTime.days(g, order: order), let t = NumericDateTime.clock(time) else { return nil }
        return d * 86_400 + t
    }
}
