/// What a hand-made entry is: a health report, or one of the seeds' logged events.
public enum EntryKind: String, CaseIterable, Sendable, Decodable {
    case report, insulin, meal, exercise, illness, stress

    public var isEpisode: Bool { self == .illness || self == .stress }

    /// `an insulin`, `a meal`: for messages.
    public var withArticle: String { (["insulin", "exercise", "illness"].contains(rawValue) ? "an " : "a ") + rawValue }

    /// The kind of a stored manual entry (`manual_entries.kind`, with the subtype for episodes).
    public init?(stored kind: String, subtype: String) {
        if kind == Event.Kind.episode.rawValue { self.init(rawValue: subtype) } else { self.init(rawValue: kind) }
    }
}

/// Ids people can type: a report's is its local time (`20240305-2000`), an entry's its kind and
/// local time (`insulin-20240305-0812`); seconds are added when not zero. The same entry typed
/// twice gets the same id, so adding is idempotent. Given ids are letters, digits, `.`, `_`, `:`, `-`.
public enum EntryIDs {
    public static func make(_ kind: EntryKind, utc: Int64, offset: Int32) -> String {
        let t = CivilDate.isoDateTime(seconds: utc + Int64(offset))  // 2024-03-05T20:00:30
        var compact = t.prefix(10).replacingOccurrences(of: "-", with: "") + "-" + t.dropFirst(11).prefix(5).replacingOccurrences(of: ":", with: "")
        if !t.hasSuffix(":00") { compact += String(t.suffix(2)) }
        return kind == .report ? compact : kind.rawValue + "-" + compact
    }

    static func invalid(_ id: String) -> EntryProblem {
        EntryProblem("id '\(id)' may hold only letters, digits, '.', '_', ':' and '-' (at most 64)", field: "id")
    }

    public static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 64 && id.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || ".:_-".unicodeScalars.contains($0)
        }
    }
}
