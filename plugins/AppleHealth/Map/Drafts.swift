import HealthPipeCore

/// A `MetadataEntry` child kept for the record's metadata JSON.
struct MetadataPair: Equatable {
    var key: String
    var value: String
}

/// What is known about a top-level element while its children stream past.
struct ElementDraft {
    var type: HealthType?
    var source: Symbol = .empty
    var sourceName = ""
    var sourceIncluded = true
    var number: Double?
    var text: String?
    var unit: UnitConversion?
    var start: HealthDate.Parsed?
    var end: HealthDate.Parsed?
    var badDate = false
    var device: DeviceInfo?
    var timeZone: String?
    var insulinReason = 0
    var userEntered = false
    var line: Int64 = 0
    var metadata: [MetadataPair] = []

    mutating func reset(line: Int64) {
        type = nil
        source = .empty
        sourceName = ""
        sourceIncluded = true
        number = nil
        text = nil
        unit = nil
        start = nil
        end = nil
        badDate = false
        device = nil
        timeZone = nil
        insulinReason = 0
        userEntered = false
        self.line = line
        metadata.removeAll(keepingCapacity: true)
    }
}

/// A parsed `device` description, shared by every record of that device.
final class DeviceInfo {
    let symbol: Symbol
    init(description: String) { symbol = DeviceText.symbol(DeviceDescription.fields(description)) }
}

/// The parts of a Food or BloodPressure correlation's nested records that the correlation needs.
struct CorrelationDraft {
    var carbs: Double?
    var protein: Double?
    var fat: Double?
    var energy: Double?
    var systolic: Double?
    var diastolic: Double?
    var members = 0

    mutating func reset() { self = CorrelationDraft() }
}

/// A workout's children: statistics, events and the route file.
struct WorkoutDraft {
    struct Statistic {
        var type: String
        var sum: Double?
        var average: Double?
        var minimum: Double?
        var maximum: Double?
        var unit: String
    }
    var activity = ""
    var durationMinutes: Double?
    var durationUnit = "min"
    var distance: Double?
    var distanceUnit = ""
    var energy: Double?
    var energyUnit = ""
    var statistics: [Statistic] = []
    var events: [(type: String, date: String)] = []
    var routes: [String] = []
    /// Inline `Location` points of a `WorkoutRoute` (exports up to iOS 12).
    var locations: [WorkoutRoute.Point] = []

    mutating func reset() { self = WorkoutDraft() }
}

/// The last few metadata texts by their entries: most records repeat one of a handful.
struct MetadataCache {
    private var pairs: [[MetadataPair]] = []
    private var texts: [String] = []
    private var next = 0
    static let capacity = 8

    func lookup(pairs wanted: [MetadataPair]) -> String? {
        for i in 0..<texts.count where pairs[i] == wanted { return texts[i] }
        return nil
    }

    mutating func store(pairs p: [MetadataPair], json: String) {
        if texts.count < Self.capacity {
            pairs.append(p)
            texts.append(json)
        } else {
            pairs[next] = p
            texts[next] = json
            next = (next + 1) % Self.capacity
        }
    }
}
