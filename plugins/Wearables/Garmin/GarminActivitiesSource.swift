import CSVFormats
import Foundation
import HealthPipeCore

/// Garmin Connect's `Activities.csv` ("Export CSV" on the activities list), in any language it writes:
/// one row per activity, newest first. Each becomes an exercise event named after the activity type
/// as Garmin's type key in every language (`running`, `treadmill_running`, `lap_swimming`: `GarminSports`), from its start (`Date`, the activity's local wall clock:
/// `--timezone` places it) for its `Time`, with distance, energy, heart rate, steps and the other times
/// in the metadata JSON. Numbers and durations follow `GarminNumbers` in the file's number format;
/// distances written with a decimal mark are in the account's unit (km, or mi with `distance_unit: mi`),
/// whole numbers in metres (yards) — Garmin writes pool swims and track runs that way.
final class GarminActivitiesSource: Source, InputDescribing {
    static let format = "garmin-activities"
    static let source = Symbol("Garmin Connect")
    let options: CSVCommonOptions
    let miles: Bool
    var inputPaths: [String] { [options.path] }

    init(options: CSVCommonOptions, miles: Bool) {
        self.options = options
        self.miles = miles
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var columns: [GarminActivityColumns.Field: Int]?
        var names: [String] = []
        var placer = LocalTimePlacer(zone: options.zone, ambiguous: options.ambiguous, nonexistent: options.nonexistent,
                                     file: options.path, format: Self.format)
        let file = Symbol(options.path)
        let input = try CSVInput(path: options.path)
        let numbers = GarminNumbers.of(input.head)
        // The store keeps one exercise per type and start: a row repeating an earlier one's type and
        // start is not stored twice — skipped when it repeats that row exactly, else quarantined.
        var seen: [String: (line: Int64, raw: String)] = [:], repeated = 0
        try CSVFileRun(input: input, format: Self.format, context: context)
            .forEachRow(delimiter: UInt8(ascii: ","), emit: emit) { row, out in
                guard let c = columns else {
                    names = row.strings()
                    guard let found = GarminActivityColumns.resolve(names) else {
                        throw InputError(file: options.path, line: row.line,
                                         reason: "not a Garmin Connect Activities.csv header (Activity Type, Date, Title, Time, … in one language)")
                    }
                    columns = found
                    return
                }
                if row.isBlank { return }
                if row.count > names.count { throw CSVFileRun.Reject.wider(row.count, than: names.count) }
                guard row.count == names.count else {
                    throw CSVFileRun.Reject("row has \(row.count) fields but the header has \(names.count) (cut short?)")
                }
                let activity = try GarminActivityRow(row: row, columns: c, names: names, numbers: numbers, miles: miles)
                let at = try placer.place(activity.start, line: row.line)
                let key = "\(activity.sport.text) \(at.utc)", raw = row.rawText
                if let first = seen[key] {
                    guard first.raw == raw else {
                        throw CSVFileRun.Reject("another \(activity.sport.text) activity starts at the same time (line \(first.line)) "
                                                + "with other values: one exercise is kept per type and start")
                    }
                    repeated += 1
                    return
                }
                seen[key] = (row.line, raw)
                let seconds = activity.seconds.map { Int64($0.rounded()) } ?? 0
                try out.add(Event(subject: options.subject, kind: .exercise, subtype: activity.sport, source: Self.source,
                                  start: at.utc, end: at.utc + seconds, utcOffset: at.offset, flags: at.flags,
                                  provenance: Provenance(file: file, line: row.line), metadata: activity.metadata), emit)
            }
        if columns == nil {
            throw InputError(file: options.path, reason: "the file is empty: no Garmin Connect Activities.csv header")
        }
        if repeated > 0 {
            context.warn("\(options.path): \(repeated) row(s) repeat an earlier activity exactly: stored once")
        }
    }

    /// The header's first line names a type, date, title and time column of one of Garmin's languages.
    static func detect(_ sniff: FileSniff) -> Int {
        guard let first = sniff.lines(1).first else { return 0 }
        let cells = first.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
        return GarminActivityColumns.resolve(cells) == nil ? 0 : 85
    }
}

/// One activity row read: its start, sport, duration and the metadata JSON.
struct GarminActivityRow {
    typealias F = GarminActivityColumns.Field
    let start: ParsedTimestamp
    let sport: Symbol
    let seconds: Double?
    let metadata: String

    static let dateTime = try! TimestampPattern("%Y-%m-%d %H:%M:%S")

    init(row: CSVRow, columns c: [F: Int], names: [String], numbers: GarminNumbers, miles: Bool) throws {
        func cell(_ f: F) -> UnsafeRawBufferPointer? { c[f].map { row.field($0) } }
        func number(_ f: F) throws -> (value: Double, whole: Bool)? {
            guard let i = c[f] else { return nil }
            return try numbers.number(row.field(i), names[i])
        }
        func duration(_ f: F) throws -> Double? {
            guard let i = c[f] else { return nil }
            return try numbers.seconds(row.field(i), names[i])
        }
        do {
            guard let date = cell(.date), let t = Self.dateTime.parse(ByteText.trim(date)) else {
                throw CSVFileRun.Reject("\(names[c[.date]!]) '\(row.string(c[.date]!))' is not a date and time such as 2025-11-06 16:16:43")
            }
            start = t
            let type = row.string(c[.type]!)
            guard !type.isEmpty else { throw CSVFileRun.Reject("an activity without its type (\(names[c[.type]!]))") }
            sport = Symbol(GarminSports.typeKey(type))
            let moving = try duration(.movingTime), elapsed = try duration(.elapsedTime)
            seconds = try Self.time(row, c, names, numbers, beside: elapsed ?? moving)
            let distance = try number(.distance)
            let energy = try number(.calories), avg = try number(.avgHR), max = try number(.maxHR), steps = try number(.steps)
            if let s = seconds, let why = Plausibility.check(s / 60, Plausibility.durationMinutes, names[c[.time]!], unit: "min") {
                throw CSVFileRun.Reject(why)
            }
            var json = JSONWriter(capacity: 256)
            json.beginObject()
            json.field("activity", type)
            if let t = c[.title] { json.field("title", row.string(t)) }
            if let s = seconds { json.field("duration_min", s / 60) }
            if let d = distance {
                let unit = d.whole ? (miles ? "yd" : "m") : (miles ? "mi" : "km")
                json.field("distance", d.value)
                json.field("distance_unit", unit)
                json.field("distance_km", d.value * Self.kilometres[unit]!)
            }
            json.field("energy_kcal", ifPresent: energy?.value)
            json.field("avg_heart_rate", ifPresent: avg?.value)
            json.field("max_heart_rate", ifPresent: max?.value)
            json.field("steps", ifPresent: steps?.value)
            json.field("moving_min", ifPresent: moving.map { $0 / 60 })
            json.field("elapsed_min", ifPresent: elapsed.map { $0 / 60 })
            json.endObject()
            metadata = String(decoding: json.bytes, as: UTF8.self)
        } catch let bad as GarminNumbers.Bad {
            throw CSVFileRun.Reject(bad.description)
        }
    }

    /// The activity's Time in seconds. Two parts are `m:ss` (`41:06`) — but a late-2025 export rounds
    /// Time to `h:mm` (`0:45` beside an elapsed `00:45:17`, `1:02` beside `01:01:18`): when the row's
    /// elapsed (else moving) time is nearer the `h:mm` reading, that is the one.
    static func time(_ row: CSVRow, _ c: [F: Int], _ names: [String], _ numbers: GarminNumbers, beside other: Double?) throws -> Double? {
        let i = c[.time]!
        guard let s = try numbers.seconds(row.field(i), names[i]) else { return nil }
        let cell = ByteText.trim(row.field(i))
        guard let other, cell.filter({ $0 == UInt8(ascii: ":") }).count == 1, !cell.contains(numbers.decimal) else { return s }
        let minutes = Double(Int(s) / 60), wholeSeconds = Double(Int(s) % 60)
        let hoursMinutes = (minutes * 60 + wholeSeconds) * 60
        return abs(hoursMinutes - other) < abs(s - other) ? hoursMinutes : s
    }

    /// Kilometres per unit Garmin writes a distance in.
    static let kilometres: [String: Double] = ["km": 1, "m": 0.001, "mi": 1.609344, "yd": 0.0009144]
}

public let garminActivitiesComponent = ComponentDescriptor(
    name: GarminActivitiesSource.format, role: .source, family: "Wearables",
    summary: """
        Garmin Connect Activities.csv (the activities list's "Export CSV") in English, Danish, German, Portuguese, \
        Spanish, Swedish, Hungarian, Finnish, Polish (verified on real exports), Norwegian, French and Italian, number format \
        1,234.5 or 1.234,5: each activity an exercise event named by Garmin's type key, for its Time, with distance \
        (km; whole numbers are metres), energy, average and maximum heart rate, steps, moving and elapsed time in the \
        metadata. Dates are the activity's local clock (--timezone). See docs/formats.md.
        """,
    options: CSVCommonOptions.docs + [
        OptionDoc("distance_unit", "km | mi", default: "km",
                  "the account's distance unit, which the file does not say: decimals are km or mi, whole numbers metres or yards"),
    ],
    produces: [.events],
    detect: { GarminActivitiesSource.detect($0) },
    signature: ["activity type", "date", "favorite", "title", "distance", "calories", "time", "avg hr"],
    build: { b in
        let unit: GarminDistanceUnit = try b.value("distance_unit") ?? .km
        return GarminActivitiesSource(options: try CSVCommonOptions.read(b), miles: unit == .mi)
    })

/// The account's distance unit (Garmin Connect's settings), which `Activities.csv` does not write.
enum GarminDistanceUnit: String, Decodable { case km, mi }
