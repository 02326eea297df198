import Foundation
import HealthPipeTestSupport

/// Cuts a real export into parts the way people end up with them (an export of the mornings and
/// one of the evenings, overlapping weekly exports): every part keeps the file's structure
/// (preamble, headers, section markers, XML prolog) and a random share of its data rows, in the
/// file's own order (scans still last, CareLink still newest first). Rows that share a timestamp
/// stay in one part, so no two parts disagree about one natural key.
struct SampleSplitter {
    enum Format { case libreView, careLink, clarity, simglucose, appleXML }

    struct Item {
        var lines: [Substring]
        /// nil for structure kept in every part; else the grouping key (the row's timestamp).
        var key: Substring?
    }

    let items: [Item]
    let lineEnding: String

    init(text: String, format: Format) {
        lineEnding = text.contains("\r\n") ? "\r\n" : "\n"
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var items: [Item] = []
        func cells(_ line: Substring, _ sep: Character) -> [Substring] { line.split(separator: sep, omittingEmptySubsequences: false) }
        switch format {
        case .libreView:
            for (i, l) in lines.enumerated() { items.append(Item(lines: [l], key: i >= 2 && !l.isEmpty ? cells(l, ",")[2] : nil)) }
        case .careLink:
            for l in lines {
                let c = cells(l, ";")
                let isData = c.count > 2 && c[0].first.map(\.isNumber) == true
                items.append(Item(lines: [l], key: isData ? c[1] + " " + c[2] : nil))
            }
        case .clarity:
            for (i, l) in lines.enumerated() {
                let c = cells(l, ",")
                items.append(Item(lines: [l], key: i >= 1 && c.count > 1 && !c[1].isEmpty ? c[1] : nil))
            }
        case .simglucose:
            for (i, l) in lines.enumerated() { items.append(Item(lines: [l], key: i >= 1 && !l.isEmpty ? cells(l, ",")[0] : nil)) }
        case .appleXML:
            // Top-level elements are indented by one space; one that does not close itself on its
            // first line runs to its one-space-indented closing tag.
            let starts = [" <Record ", " <Correlation ", " <Workout ", " <ActivitySummary "]
            var open = false
            for l in lines {
                if open {
                    items[items.count - 1].lines.append(l)
                    if l.hasPrefix(" </") { open = false }
                } else if starts.contains(where: l.hasPrefix) {
                    let key = Self.attribute(l.hasPrefix(" <ActivitySummary") ? "dateComponents" : "startDate", in: l)
                    items.append(Item(lines: [l], key: key))
                    open = !l.hasSuffix("/>")
                } else {
                    items.append(Item(lines: [l], key: nil))
                }
            }
        }
        self.items = items
    }

    static func attribute(_ name: String, in line: Substring) -> Substring? {
        guard let r = line.range(of: name + "=\"") else { return nil }
        let rest = line[r.upperBound...]
        return rest.firstIndex(of: "\"").map { rest[..<$0] }
    }

    /// The file cut into `k` parts: each data group goes to one random part.
    func parts(_ k: Int, using rng: inout SplitMix64) -> [String] {
        var partOf: [Substring: Int] = [:]
        var texts = Array(repeating: [Substring](), count: k)
        for item in items {
            if let key = item.key {
                let p = partOf[key] ?? Int(rng.next() % UInt64(k))
                partOf[key] = p
                texts[p] += item.lines
            } else {
                for p in 0..<k { texts[p] += item.lines }
            }
        }
        return texts.map { $0.joined(separator: lineEnding) }
    }
}
