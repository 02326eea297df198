/// The first pass over a FIT input: which of its FIT files check out (header and file CRC), and the
/// wearer's UTC offset each one states (`activity.local_timestamp` or `monitoring_info.local_timestamp`
/// minus the message's UTC `timestamp`). Records are made in a second pass, so nothing of a damaged
/// file is stored and every record gets the file's offset, though `activity` comes after the records.
struct FITScan {
    var damage: [Int: String] = [:]
    var offsets: [Int: Int32] = [:]

    init(_ bytes: FITBytes) throws {
        var decoder = FITDecoder()
        var damage: [Int: String] = [:], offsets: [Int: Int32] = [:]
        try decoder.run(bytes, message: { m in
            guard m.global == FITProfile.Message.activity || m.global == FITProfile.Message.monitoringInfo,
                  offsets[m.section] == nil, let utc = m.time, FITTime.isDate(utc) else { return }
            let field = m.global == FITProfile.Message.activity ? FITProfile.activityLocalTime : FITProfile.monitoringInfoLocalTime
            guard let local = m.time(field) else { return }
            offsets[m.section] = FITScan.offset(local: local, utc: utc)
        }, section: { s in
            if let d = s.damage { damage[s.index] = d }
        }, problem: { _ in })
        self.damage = damage
        self.offsets = offsets
    }

    /// Local minus UTC, to the quarter hour (zones are); nil beyond ±14 h (not a clock offset).
    static func offset(local: Int64, utc: Int64) -> Int32? {
        let d = local - utc
        let q = (d + (d >= 0 ? 450 : -450)) / 900 * 900
        return abs(q) <= 14 * 3600 ? Int32(q) : nil
    }
}
