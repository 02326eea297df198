import HealthPipeCore

/// A text column whose value repeats row after row (a reading's unit, its band), read as a Symbol
/// that is made again only when the bytes change: a day view reads some thousand readings, and
/// decoding two strings of each was a tenth of the reading.
struct RepeatedSymbol {
    private var bytes: [UInt8] = []
    private var symbol = Symbol.empty

    /// The column's text as a Symbol; NULL and "" are `.empty`.
    mutating func read(_ s: Statement, _ column: Int32) -> Symbol {
        s.withText(column) { text in
            guard let text, !text.isEmpty else { return .empty }
            if text.count == bytes.count && text.elementsEqual(bytes) { return symbol }
            bytes = Array(text)
            symbol = Symbol(String(decoding: text, as: UTF8.self))
            return symbol
        }
    }
}
