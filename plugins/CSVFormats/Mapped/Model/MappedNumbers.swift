/// A cell's number under the adapter's decimal mark.
enum MappedNumbers {
    @inline(__always)
    static func double(_ cell: UnsafeRawBufferPointer, _ mark: MappedAdapter.DecimalMark) -> Double? {
        switch mark {
        case .point: return ByteText.double(cell)
        case .comma: return ByteText.double(cell, decimalComma: true)
        case .auto: return ByteText.double(cell) ?? ByteText.double(cell, decimalComma: true)
        }
    }
}
