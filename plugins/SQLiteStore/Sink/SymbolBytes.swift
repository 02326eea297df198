import HealthPipeCore

/// Each symbol's UTF-8 bytes, copied once into a buffer that lives as long as this cache, so rows
/// bind text with SQLITE_STATIC: no String, no copy, no symbol-table lock per row.
final class SymbolBytes {
    private var pointers: [UnsafeMutablePointer<UInt8>?] = []
    private var counts: [Int32] = []

    deinit { for p in pointers { p?.deallocate() } }

    /// Binds `symbol`'s text ('' for the empty symbol, never NULL).
    @inline(__always)
    func bind(_ symbol: Symbol, to statement: Statement, at index: Int32) throws {
        let i = Int(symbol.id)
        if i >= pointers.count || pointers[i] == nil { load(symbol) }
        try statement.bindStaticText(index, pointers[i].unsafelyUnwrapped, count: counts[i])
    }

    /// Binds `symbol`'s text, or NULL for the empty symbol (optional columns such as band).
    @inline(__always)
    func bindOrNull(_ symbol: Symbol, to statement: Statement, at index: Int32) throws {
        if symbol.isEmpty { try statement.bindNull(index) } else { try bind(symbol, to: statement, at: index) }
    }

    private func load(_ symbol: Symbol) {
        let i = Int(symbol.id)
        if i >= pointers.count {
            let newCount = max(i + 1, pointers.count * 2, 64)
            pointers.append(contentsOf: repeatElement(nil, count: newCount - pointers.count))
            counts.append(contentsOf: repeatElement(0, count: newCount - counts.count))
        }
        let utf8 = Array(symbol.text.utf8)
        // At least one byte, so the empty string binds as '' rather than NULL.
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(utf8.count, 1))
        buffer.initialize(to: 0)
        utf8.withUnsafeBufferPointer { src in
            if let base = src.baseAddress { buffer.update(from: base, count: src.count) }
        }
        pointers[i] = buffer
        counts[i] = Int32(utf8.count)
    }
}
