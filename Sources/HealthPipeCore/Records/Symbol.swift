import Synchronization

/// An interned string: metric, source, subject and unit names repeat on every record, so records
/// carry a 4-byte id and the text lives once in `SymbolTable.shared`.
public struct Symbol: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let id: UInt32
    public init(id: UInt32) { self.id = id }

    /// Interns `text` (takes the table lock: cache symbols outside hot loops).
    public init(_ text: String) { self = SymbolTable.shared.intern(text) }

    public var text: String { SymbolTable.shared.text(of: self) }
    public var description: String { text }
    public var isEmpty: Bool { self == Symbol.empty }
    public static func < (a: Symbol, b: Symbol) -> Bool { a.text < b.text }

    /// The empty string is always id 0.
    public static let empty = Symbol(id: 0)
}

/// Process-wide intern table. Reads and writes are guarded by one mutex; parsers keep their own
/// small caches so the lock is taken once per distinct string, not per record.
public final class SymbolTable: Sendable {
    public static let shared = SymbolTable()

    private struct State {
        var ids: [String: UInt32] = ["": 0]
        var texts: [String] = [""]
    }
    private let state = Mutex(State())

    public func intern(_ text: String) -> Symbol {
        state.withLock { s in
            if let id = s.ids[text] { return Symbol(id: id) }
            let id = UInt32(s.texts.count)
            s.texts.append(text)
            s.ids[text] = id
            return Symbol(id: id)
        }
    }

    public func text(of symbol: Symbol) -> String {
        state.withLock { $0.texts[Int(symbol.id)] }
    }
}
