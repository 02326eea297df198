import HealthPipeCore

/// What is known about a top-level element while its children stream past.
struct ElementDraft {
    var type: HealthType?
    /// The source's symbol, name and filter verdict, shared by every record of that source.
    var sourceInfo: SourceInfo?
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
    /// The first `HKFoodType` entry (a Food correlation's note).
    var foodType: String?
    var line: Int64 = 0
    var metadata = MetadataMembers()

    var source: Symbol { sourceInfo?.symbol ?? .empty }
    var sourceName: String { sourceInfo?.name ?? "" }
    var sourceIncluded: Bool { sourceInfo?.included ?? true }

    mutating func reset(line: Int64) {
        type = nil
        sourceInfo = nil
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
        foodType = nil
        self.line = line
        metadata.removeAll()
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
