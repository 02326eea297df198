import CSQLite
import Foundation
import HealthPipeCore

/// Turns a TEXT column into a Symbol without building a String per row: the column's bytes are
/// compared with the previous row's, which for a unit or band column almost always match.
struct ColumnSymbolCache {
    private var lastBytes: [UInt8] = []
    private var lastSymbol: Symbol?

    /// The column's symbol; `.empty` for NULL.
    mutating func symbol(_ statement: Statement, _ column: Int32) -> Symbol {
        guard let p = sqlite3_column_text(statement.handle, column) else { return .empty }
        let n = Int(sqlite3_column_bytes(statement.handle, column))
        if let s = lastSymbol, lastBytes.count == n,
           n == 0 || lastBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, p, n) == 0 }) {
            return s
        }
        let bytes = UnsafeBufferPointer(start: p, count: n)
        let s = Symbol(String(decoding: bytes, as: UTF8.self))
        lastBytes = Array(bytes)
        lastSymbol = s
        return s
    }
}
