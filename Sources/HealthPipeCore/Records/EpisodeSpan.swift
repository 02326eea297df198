/// How long an illness or stress episode lasts, for the days it flags (seeds 000/002). An episode
/// with an end lasts from start to end. A *marker* — an episode whose export gives no end (a
/// Clarity Health row, a CareLink event marker) — lasts `daily`'s `episode_length` (default 24 h,
/// at most `markerMaxDays`). An *open* episode (started by hand, not ended yet: `openEnded`) lasts
/// until it is ended: it flags every day from its start that has a row in the day table.
public enum EpisodeSpan {
    public static let defaultMarkerSeconds: Int64 = 86_400
    /// The longest `episode_length`: a store marks this many days after a marker pending.
    public static let markerMaxDays: Int64 = 7

    public static func isMarker(_ e: Event) -> Bool {
        e.kind == .episode && e.end == e.start && !e.flags.contains(.openEnded)
    }

    public static func isOpen(_ e: Event) -> Bool { e.kind == .episode && e.flags.contains(.openEnded) }
}
