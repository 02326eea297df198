import Foundation

/// What a page's charts draw, counted as the store counts it: a mark gathering close ones
/// (`CloseMarks`) carries `data-count`, one alone none.
public enum DrawnMarks {
    /// The BG checks drawn: each `check-point`, by its `data-count` when it gathers several.
    public static func checks(_ html: String) -> Int {
        html.components(separatedBy: "<g class=\"check-point\"").dropFirst().reduce(0) { sum, part in
            let tag = part.prefix { $0 != ">" }
            guard let r = tag.range(of: #"data-count="\d+""#, options: .regularExpression) else { return sum + 1 }
            return sum + (Int(tag[r].dropFirst(12).dropLast()) ?? 1)
        }
    }
}
