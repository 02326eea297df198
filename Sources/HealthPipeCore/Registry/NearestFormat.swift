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

    /// The format sharing the largest share of its signature with the file's first lines; nil when
    /// no format shares a word (the file is unlike anything registered).
    public static func find(_ sniff: FileSniff, among sources: [ComponentDescriptor]) -> NearestFormat? {
        let text = sniff.lines(searchedLines).joined(separator: "\n").lowercased()
        var best: (near: NearestFormat, share: Double)? = nil
        for c in sources where !c.signature.isEmpty {
            let found = c.signature.filter { text.contains($0) }
            guard !found.isEmpty else { continue }
            let share = Double(found.count) / Double(c.signature.count)
            if best == nil || share > best!.share {
                best = (NearestFormat(name: c.name, found: found, missing: c.signature.filter { !found.contains($0) }), share)
            }
        }
        return best?.near
    }
}
