import Foundation
import HealthPipeCore
import JSONFormats

/// The members of the account export's ("Fitbit/Global Export Data") per-file JSON arrays, one table
/// for every family so one parse of a file's first object tells which family it is.
enum FitbitFields {
    static let paths = ["dateTime", "value", "value.bpm", "value.confidence", "value.date", "value.value", "value.error"]
    static let table = JSONPathTable(paths)
    static let dateTime = 0, value = 1, bpm = 2, confidence = 3, date = 4, dayValue = 5, error = 6

    /// What a file's first object shows it is.
    enum Shape { case heartRate, restingHeartRate, minuteSeries }

    /// `{"dateTime": "01/01/21 06:00:15", "value": {"bpm": 58, "confidence": 1}}` is heart rate;
    /// `{"dateTime": …, "value": {"date": "01/01/21", "value": 61.4, "error": 7.2}}` resting heart rate;
    /// `{"dateTime": …, "value": "12"}` a per-minute series (steps, distance, calories, altitude).
    static func shape(_ sniff: FileSniff) -> Shape? {
        guard let doc = JSONSniff.firstObject(sniff, table: table),
              (doc.withText(dateTime, { FitbitDateTime.seconds($0) }) ?? nil) != nil else { return nil }
        if doc.kind(bpm) == .number, doc.has(confidence) { return .heartRate }
        if doc.has(date), doc.has(dayValue), doc.has(error) { return .restingHeartRate }
        if doc.kind(value) == .string, doc.number(value) != nil { return .minuteSeries }
        return nil
    }

    /// Words these files show near their start: "unknown format" names the nearest format by them.
    static let signature = ["\"datetime\"", "\"value\""]
}

/// Options every Fitbit account-export source takes.
struct FitbitOptions {
    var path: String
    /// The person's zone: the local day of a UTC reading, and the midnight of a daily value.
    var zone: TimeZone?
    var subject: Symbol

    static let docs: [OptionDoc] = [
        OptionDoc("path", "path", required: true, "the Fitbit JSON file (`-` for standard input)"),
        OptionDoc("timezone", "IANA zone or ±HH:MM", default: "UTC",
                  "the wearer's zone: the local day of each reading (the file's times are UTC) and the midnight of a daily value"),
        OptionDoc("subject", "text", default: "the run's --subject", "whose data this is"),
    ]

    static func read(_ b: ComponentBuilder) throws -> FitbitOptions {
        FitbitOptions(path: b.path(try b.required("path")), zone: try b.zone(b.value("timezone")),
                      subject: Symbol(try b.value("subject") ?? b.settings.subject))
    }
}

/// Names and units shared by the Fitbit sources (the canonical ones Apple Health's import uses).
enum FitbitNames {
    static let source = Symbol("Fitbit")
    static let perMinute = Symbol("count/min")
    static let count = Symbol("count")
    static let heartRate = Metrics.heartRate
    static let restingHeartRate = Symbol("resting_heart_rate")
    static let stepCount = Symbol("step_count")
}
