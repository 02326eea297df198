/// One data message as the decoder hands it over: its definition, its bytes (valid only during the
/// call), its time and where it is. Reading a field allocates nothing.
struct FITMessage {
    let definition: FITDefinition
    let data: UnsafeRawBufferPointer
    /// UTC epoch seconds: the message's `timestamp` field or compressed-timestamp header; nil without either.
    let time: Int64?
    /// The last full timestamp seen in this FIT file (UTC epoch seconds), for `timestamp_16` fields.
    let lastTime: Int64?
    /// Byte offset of the message's header in the input.
    let offset: Int64
    /// Which FIT file of a chained input (0 for the first).
    let section: Int

    var global: UInt16 { definition.global }

    /// A field's number with the profile's scale and offset applied (value = raw / scale − offset).
    @inline(__always)
    func value(_ field: UInt8, scale: Double = 1, offset: Double = 0) -> Double? {
        definition.number(field, in: data).map { $0 / scale - offset }
    }

    func byte(_ field: UInt8) -> UInt8? { definition.byte(field, in: data) }

    /// A field holding a FIT time (seconds since 1989-12-31 00:00 UTC) as UTC epoch seconds.
    func time(_ field: UInt8) -> Int64? {
        value(field).map { FITTime.epoch(Int64($0)) }
    }

    /// `timestamp_16` (monitoring): the low 16 bits of the time, completed from the last full timestamp.
    func time16(_ field: UInt8) -> Int64? {
        guard let t16 = value(field), let last = lastTime else { return nil }
        let lastFIT = last - FITTime.offset
        return FITTime.epoch(lastFIT + ((Int64(t16) - (lastFIT & 0xFFFF)) & 0xFFFF))
    }
}

enum FITTime {
    /// Seconds from 1970-01-01 to the FIT epoch 1989-12-31 00:00 UTC.
    static let offset: Int64 = 631_065_600
    /// FIT times below this are seconds since the device was switched on, not dates (the protocol's rule).
    static let firstDate: Int64 = 0x1000_0000

    static func epoch(_ fit: Int64) -> Int64 { fit + offset }
    /// True for a time that is a date, not a device's uptime.
    static func isDate(_ epoch: Int64) -> Bool { epoch - offset >= firstDate }
}
