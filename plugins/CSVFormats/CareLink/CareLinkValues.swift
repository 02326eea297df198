import HealthPipeCore

/// Reading CareLink value cells. European exports write a decimal comma (`0,825`, `Insulin: 27,00`);
/// with a `,` separator (older US exports) only a decimal point can appear.
struct CareLinkValues {
    let decimalComma: Bool

    func parse(_ cell: UnsafeRawBufferPointer) -> Double? {
        // A `,` file can still hold a quoted decimal comma (`"1,5"`, the German Datenexport).
        decimalComma ? ByteText.double(cell, decimalComma: true) ?? ByteText.double(cell)
            : ByteText.double(cell) ?? ByteText.double(cell, decimalComma: true)
    }

    /// A non-negative number; nil for an empty cell; throws for anything else.
    func number(_ cell: UnsafeRawBufferPointer, _ what: String) throws -> Double? {
        if cell.isEmpty { return nil }
        guard let v = parse(cell), v >= 0 else { throw CSVFileRun.Reject("\(what) '\(cell.echo)' is not a number") }
        return v
    }

    /// A glucose cell in canonical mg/dL, with `convertedFromMmol` for mmol/L columns.
    func glucose(_ cell: UnsafeRawBufferPointer, _ column: CareLinkColumns.Glucose,
                 _ what: String) throws -> (Double, RecordFlags)? {
        guard let v = try number(cell, what) else { return nil }
        return try GlucoseValue.canonical(v, unit: column.unit, cell: cell, what: what)
    }

    /// The amount after the colon of an event marker (`Insulin: 27,00`, `Meal: 60,00grams`), unit text ignored.
    func markerAmount(_ marker: UnsafeRawBufferPointer) -> Double? {
        guard let colon = marker.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var lo = colon + 1
        while lo < marker.count, marker[lo] == 0x20 { lo += 1 }
        var hi = lo
        while hi < marker.count,
              marker[hi] &- 0x30 <= 9 || marker[hi] == UInt8(ascii: ",") || marker[hi] == UInt8(ascii: ".") { hi += 1 }
        return parse(UnsafeRawBufferPointer(rebasing: marker[lo..<hi]))
    }

    /// The label before an event marker's colon (`Insulin`), or the whole marker.
    static func markerLabel(_ marker: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let colon = marker.firstIndex(of: UInt8(ascii: ":")) else { return marker }
        return ByteText.trim(UnsafeRawBufferPointer(rebasing: marker[..<colon]))
    }
}
