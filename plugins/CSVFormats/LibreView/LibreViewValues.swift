import HealthPipeCore

/// Reading LibreView value cells: numbers (a decimal comma appears in quoted cells of some EU
/// exports) and glucose readings, including the reader's `LO`/`HI` text.
enum LibreViewValues {
    /// FreeStyle Libre readers show `LO` below 40 mg/dL and `HI` above 500 mg/dL: such readings are
    /// kept at the limit with a flag, never dropped and never mistaken for a real 40 or 500.
    static let sensorLow = 40.0, sensorHigh = 500.0

    /// A number with `.` or `,` as the decimal separator; nil for empty cells; throws for anything else.
    static func number(_ cell: UnsafeRawBufferPointer, _ what: String) throws -> Double? {
        if cell.isEmpty { return nil }
        guard let v = ByteText.double(cell) ?? ByteText.double(cell, decimalComma: true) else {
            throw CSVFileRun.Reject("\(what) '\(cell.echo)' is not a number")
        }
        guard v >= 0 else { throw CSVFileRun.Reject("\(what) \(cell.echo) is negative") }
        return v
    }

    /// A glucose cell in canonical mg/dL with its flags; nil when the cell is empty.
    static func glucose(_ cell: UnsafeRawBufferPointer, unit: GlucoseUnit, _ what: String) throws -> (Double, RecordFlags)? {
        if cell.isEmpty { return nil }
        if let v = ByteText.double(cell) ?? ByteText.double(cell, decimalComma: true) {
            return try GlucoseValue.canonical(v, unit: unit, cell: cell, what: what)
        }
        if ByteText.equalsIgnoringCase(cell, "LO") || ByteText.equalsIgnoringCase(cell, "Low") {
            return (sensorLow, .belowSensorRange)
        }
        if ByteText.equalsIgnoringCase(cell, "HI") || ByteText.equalsIgnoringCase(cell, "High") {
            return (sensorHigh, .aboveSensorRange)
        }
        throw CSVFileRun.Reject("\(what) '\(cell.echo)' is not a glucose reading")
    }
}
