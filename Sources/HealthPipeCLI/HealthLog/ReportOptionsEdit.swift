import HealthPipeCore
import Yams

/// `alerts set`'s changes to the `reports` step's options, as the YAML mapping a settings file
/// holds: the typed words become keys of that mapping and nothing here judges their values — the
/// settings parser (`reports`' options) checks the result, so `alerts set` and a settings file
/// accept and refuse alike, with the same messages.
struct ReportOptionsEdit {
    /// A time of day, or off (nil: unchanged).
    var reminder: String?
    var clearThresholds = false
    /// Stored thresholds to take out, as (metric, above) — matched by the metric's canonical name.
    var removals: [(metric: String, above: Bool)] = []
    var additions: [Node] = []

    static let offWords: Set<String> = ["off", "none", "false", "no"]

    /// The options with the changes made: removals and clearing first, then additions.
    func applied(to options: Node) throws -> Node {
        var pairs: [(key: String, value: Node)] = []
        if case .mapping(let m) = options { pairs = m.map { ($0.key.string ?? "", $0.value) } }
        var stored: [Node] = []
        if let i = pairs.firstIndex(where: { $0.key == "thresholds" }), case .sequence(let seq) = pairs[i].value { stored = Array(seq) }
        for removal in removals {
            guard let i = stored.firstIndex(where: { Self.identity(of: $0).map { $0 == removal } ?? false }) else {
                throw usage("--remove-threshold: no '\(removal.above ? "above" : "below")' threshold on \(removal.metric) is stored")
            }
            stored.remove(at: i)
        }
        if clearThresholds { stored = [] }
        let thresholds = stored + additions
        pairs.removeAll { $0.key == "thresholds" || ($0.key == "reminder" && reminder != nil) }
        if let reminder, !Self.offWords.contains(reminder.lowercased()) { pairs.append(("reminder", Node(reminder))) }
        if !thresholds.isEmpty { pairs.append(("thresholds", PipelineDraft.list(thresholds))) }
        return PipelineDraft.mapping(pairs)
    }

    /// A stored threshold's (canonical metric, above); nil when it is not a mapping with a metric.
    static func identity(of node: Node) -> (metric: String, above: Bool)? {
        guard case .mapping(let m) = node, let metric = m["metric"]?.string else { return nil }
        return (HealthValues.metricName(metric) ?? metric, m["above"] != nil)
    }
}

/// A threshold as `alerts set` takes it: `metric above|below VALUE[unit] [days=N] [importance=M]`,
/// e.g. `body_temperature above 37.5 days=7 importance=4` or `weight below 60kg`.
enum ThresholdText {
    static let shape = "metric above|below VALUE[unit] [days=N] [importance=M]"

    /// The settings file's mapping for the typed threshold; only its shape is checked here.
    static func node(_ text: String) throws -> Node {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count >= 3, let direction = direction(words[1]) else {
            throw usage("--threshold \(EchoText.cap(text)): write \(shape), e.g. body_temperature above 37.5 days=7 importance=4")
        }
        let (number, unit) = HealthValueText.splitNumber(words[2])
        var pairs: [(key: String, value: Node)] = [("metric", Node(words[0])),
                                                  (direction, Node(number.map(HealthValues.text) ?? words[2]))]
        if number != nil, !unit.isEmpty { pairs.append(("unit", Node(unit))) }
        for word in words.dropFirst(3) {
            let kv = word.split(separator: "=", maxSplits: 1).map(String.init)
            let key = ["days": "days", "importance": "min_importance", "min_importance": "min_importance", "unit": "unit"][kv[0]]
            guard kv.count == 2, let key, !pairs.contains(where: { $0.key == key }) else {
                throw usage("--threshold \(EchoText.cap(text)): '\(EchoText.cap(word))' is not days=N, importance=M or unit=U (\(shape))")
            }
            pairs.append((key, Node(kv[1])))
        }
        return PipelineDraft.mapping(pairs)
    }

    /// `metric above|below` of `--remove-threshold`, the metric by its canonical name.
    static func identity(_ text: String) throws -> (metric: String, above: Bool) {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count == 2, let direction = direction(words[1]) else {
            throw usage("--remove-threshold \(EchoText.cap(text)): write metric above|below, e.g. body_temperature above")
        }
        return (HealthValues.metricName(words[0]) ?? words[0], direction == "above")
    }

    private static func direction(_ word: String) -> String? {
        ["above", "below"].contains(word.lowercased()) ? word.lowercased() : nil
    }
}
