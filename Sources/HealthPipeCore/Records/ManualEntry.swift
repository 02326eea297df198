/// An event entered by hand (seeds 000/002: insulin, meal, exercise, an illness or stress
/// episode) under a stable id, so it can be edited or deleted later. The event itself travels
/// beside it in the batch's events; this record tells the store which event row the id owns.
public struct ManualEntry: Hashable, Sendable {
    /// The event source of every manual entry.
    public static let source = Symbol("manual")

    /// Stable per subject: what `entries edit` and `entries delete` take.
    public var id: String
    public var event: Event

    public init(id: String, event: Event) {
        self.id = id
        self.event = event
    }

    /// `insulin`, `meal`, `exercise`, `illness`, `stress` — the word the commands use.
    public var kindName: String {
        event.kind == .episode ? event.subtype.text : event.kind.rawValue
    }
}
