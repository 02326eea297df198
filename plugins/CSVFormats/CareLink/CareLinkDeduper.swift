import HealthPipeCore

/// CareLink logs some things twice. Guardian Connect repeats event markers verbatim (same time,
/// same text, next Index), and MiniMed pumps log each bolus as programmed and then as delivered
/// under one Bolus Number. Importing both would double the insulin, so only the first of each is kept.
struct CareLinkDeduper {
    private var events = Set<Event>()
    private var boluses: [BolusKey: Int64] = [:]

    private struct BolusKey: Hashable {
        var number: Int64
        var type: Symbol
    }

    /// Bolus numbers are per pump and may restart on a replaced pump: the same number further apart
    /// than this is a different bolus.
    static let bolusPairWindow: Int64 = 12 * 3600

    /// False when an identical event (ignoring the line it came from) was already kept.
    mutating func isNew(_ event: Event) -> Bool {
        var key = event
        key.provenance = .none
        return events.insert(key).inserted
    }

    /// False when the same bolus (number and type) was already kept within the pairing window.
    mutating func isNewBolus(number: Int64, type: Symbol, local: Int64) -> Bool {
        let key = BolusKey(number: number, type: type)
        if let seen = boluses[key], abs(seen - local) <= Self.bolusPairWindow { return false }
        boluses[key] = local
        return true
    }
}
