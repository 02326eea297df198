import HealthPipeCore

/// A glucose unit cell read from its bytes, as `GlucoseUnit(spelling:)` reads text (mg/dL, mgdl,
/// mg; mmol/L, mmol), without making a String per row.
enum GlucoseUnitBytes {
    static func unit(_ cell: UnsafeRawBufferPointer) -> GlucoseUnit? {
        func lower(_ i: Int) -> UInt8 { let b = cell[i]; return b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
        func starts(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard cell.count >= n else { return false }
            return (0..<n).allSatisfy { lower($0) == word.utf8Start[$0] }
        }
        if starts("mmol") { return .mmol }
        if starts("mg/dl") || (cell.count == 2 && starts("mg")) || (cell.count == 4 && starts("mgdl")) { return .mgdl }
        return nil
    }
}
