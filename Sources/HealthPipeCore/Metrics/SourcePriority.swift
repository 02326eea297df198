/// Which source counts when several recorded the same minute of a metric that adds up (steps,
/// distance, energy, sleep): the Health app's rule by default — a watch before a phone before
/// any other app — and the names a person lists first (`daily`'s `source_priority`).
public struct SourcePriority: Sendable, Equatable {
    /// Source names, most trusted first. An entry matches a source whose name equals or contains
    /// it, ignoring case (`iPhone` matches "Alex’s iPhone").
    public var preferred: [String]

    public init(preferred: [String] = []) { self.preferred = preferred.map { $0.lowercased() } }

    /// The source's place, lower first: listed names by their order, then a watch ("… Apple Watch",
    /// whatever space Apple writes inside), then an iPhone, then every other source; ties go by name,
    /// so the choice never depends on the order of the input.
    public func rank(of source: String) -> Rank {
        let name = source.lowercased()
        if let i = preferred.firstIndex(where: { name == $0 || name.contains($0) }) { return Rank(tier: i, name: source) }
        let tier = name.contains("watch") ? 0 : name.contains("iphone") ? 1 : 2
        return Rank(tier: preferred.count + tier, name: source)
    }

    public struct Rank: Comparable, Sendable {
        public let tier: Int
        public let name: String
        public static func < (a: Rank, b: Rank) -> Bool { (a.tier, a.name) < (b.tier, b.name) }
    }
}
