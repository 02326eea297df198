import HealthPipeCore

/// LibreView writes one row per note, so two notes typed in the same minute (`gym`, then
/// `oatmeal`) are two rows with one natural key (events are keyed without their text): stored as
/// they come, the second would replace the first, and a re-import would count both as changed.
/// Entries are therefore held until the end of the file and those sharing a key become one event
/// whose note keeps every text. Entries are few beside readings (notes, doses, meals), so holding
/// them costs little; readings are never held.
struct LibreViewEventMerger {
    private struct Key: Hashable {
        var kind: Event.Kind
        var subtype: Symbol
        var source: Symbol
        var start: Int64
        var amount: Double?
    }

    private var events: [Event] = []
    private var index: [Key: Int] = [:]

    /// Holds an event (already checked against `Plausibility` by the row that made it).
    mutating func add(_ e: Event) {
        let key = Key(kind: e.kind, subtype: e.subtype, source: e.source, start: e.start,
                      amount: e.kind == .insulin ? e.insulin : e.kind == .meal ? e.carbs : nil)
        guard let i = index[key] else {
            index[key] = events.count
            events.append(e)
            return
        }
        if let text = e.note, !(events[i].note ?? "").split(separator: "; ").contains(Substring(text)) {
            events[i].note = events[i].note.map { $0 + "; " + text } ?? text
        }
    }

    /// Hands every held event on, in file order.
    mutating func drain(into out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        for e in events { try out.add(e, emit) }
        events.removeAll()
        index.removeAll()
    }
}
