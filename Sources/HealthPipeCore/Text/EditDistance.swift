/// Suggests the nearest valid name for a misspelt one ("did you mean 'dexcom-clarity'?").
public enum NameSuggester {
    public static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
        let w = Array(word.lowercased().utf8)
        var best: (String, Int)? = nil
        for c in candidates {
            let d = distance(w, Array(c.lowercased().utf8))
            if best == nil || d < best!.1 { best = (c, d) }
        }
        guard let (name, d) = best else { return nil }
        return d <= max(2, w.count / 3) ? name : nil
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev2 = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = prev
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cur[j] = min(cur[j], prev2[j - 2] + 1) }
            }
            prev2 = prev
            prev = cur
        }
        return prev[b.count]
    }
}
