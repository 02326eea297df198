/// The registered format a file that no detector claims comes closest to, by the signature words
/// (header words, JSON keys) each format declares: so "unknown format" can say "closest is
/// libreview: has 'device timestamp', lacks 'record type'" and a user sees which column their
/// export renamed or which language it is in.
public struct NearestFormat: Sendable, CustomStringConvertible {
    public var name: String
    public var found: [String]
    public var missing: [String]

    /// Lines of the file's start that are searched for signature words.
    public static let searchedLines = 30

    public var description: String {
        if missing.isEmpty { return "closest is \(name) (has all its header words, but not its layout: check rows and separators)" }
        return "closest is \(name) (has \(quoted(found)); lacks \(quoted(missing)))"
    }

    private func quoted(_ words: [String]) -> String {
        words.prefix(6).map { "'\($0)'" }.joined(separator: ", ") + (words.count > 6 ? " and \(words.count - 6) more" : "")
    }

    /// The format sharing the most signature words with the file's first lines (then the largest
    /// share of its signature, so a short signature does not beat a longer one met further); nil
    /// when no format shares a word (the file is unlike anything registered).
    public static func find(_ sniff: FileSniff, among sources: [ComponentDescriptor]) -> NearestFormat? {
        let text = sniff.lines(searchedLines).joined(separator: "\n").lowercased()
        var best: (near: NearestFormat, count: Int, share: Double)? = nil
        for c in sources where !c.signature.isEmpty {
            let found = c.signature.filter { Self.contains(text, word: $0) }
            guard !found.isEmpty else { continue }
            let share = Double(found.count) / Double(c.signature.count)
            if let b = best, (found.count, share) <= (b.count, b.share) { continue }
            best = (NearestFormat(name: c.name, found: found, missing: c.signature.filter { !found.contains($0) }), found.count, share)
        }
        return best?.near
    }

    /// `word` occurs in `text` not as part of a longer word ("date" is not found in "eventdatetime"):
    /// a letter or digit may not touch it on a side where the word itself ends in one.
    static func contains(_ text: String, word: String) -> Bool {
        guard let first = word.first, let last = word.last else { return false }
        var from = text.startIndex
        while let r = text.range(of: word, range: from..<text.endIndex) {
            let before = r.lowerBound == text.startIndex ? nil : text[text.index(before: r.lowerBound)]
            let after = r.upperBound == text.endIndex ? nil : text[r.upperBound]
            let openBefore = !(first.isLetter || first.isNumber) || !(before?.isLetter == true || before?.isNumber == true)
            let openAfter = !(last.isLetter || last.isNumber) || !(after?.isLetter == true || after?.isNumber == true)
            if openBefore && openAfter { return true }
            from = text.index(after: r.lowerBound)
        }
        return false
    }
}
