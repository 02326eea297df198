/// A header name in an adapter may list alternatives separated by `|` ("Date|Dato|Datum"): one
/// adapter then reads the same layout written in several languages or units. Names are kept
/// normalized (`HeaderText.normalize` per alternative) and joined by `|`.
enum ColumnNames {
    static let separator: Character = "|"

    /// Each alternative normalized, joined back with `|`.
    static func normalize(_ text: String) -> String {
        text.split(separator: separator, omittingEmptySubsequences: false)
            .map { HeaderText.normalize(String($0)) }
            .joined(separator: String(separator))
    }

    static func alternatives(_ normalized: String) -> [Substring] {
        normalized.split(separator: separator, omittingEmptySubsequences: false)
    }

    /// The position of the first alternative the header has, else nil.
    static func index(of normalized: String, in header: [String]) -> Int? {
        for alt in alternatives(normalized) {
            if let i = header.firstIndex(where: { $0 == alt }) { return i }
        }
        return nil
    }

    /// The header holds every required cell (each by any of its alternatives).
    static func allPresent(_ required: [String], in header: [String]) -> Bool {
        required.allSatisfy { index(of: $0, in: header) != nil }
    }

    /// Some alternative of `name` is an alternative of one of `cells` (for the compiler's check
    /// that structural columns are among `header_contains`).
    static func listed(_ name: String, among cells: [String]) -> Bool {
        let mine = Set(alternatives(name))
        return cells.contains { !mine.isDisjoint(with: alternatives($0)) }
    }
}
