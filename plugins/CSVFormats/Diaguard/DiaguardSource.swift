import Foundation
import HealthPipeCore

/// A Diaguard backup CSV (the Android diary's "Backup" export): `;`-separated, every cell quoted, a
/// `meta` row with the database version, the user's `tag` and `food` definitions, then each diary
/// `entry` (local time `yyyy-MM-dd HH:mm:ss`, a note) followed by its `measurement` rows (a category
/// and its values: blood sugar in mg/dL, insulin bolus;correction;basal, meal carbs in g, activity
/// minutes, HbA1c %, weight kg, pulse, blood pressure, oxygen saturation %), its `entryTag` labels and
/// the `foodEaten` of its meal. Rows have as many cells as their type needs. No zone: one is required.
final class DiaguardSource: Source, InputDescribing {
    static let format = "diaguard"

    let options: CSVCommonOptions
    var inputPaths: [String] { [options.path] }

    init(options: CSVCommonOptions) { self.options = options }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var mapper = DiaguardRowMapper(options: options)
        try CSVFileRun(input: CSVInput(path: options.path), format: Self.format, context: context)
            .run(delimiter: UInt8(ascii: ";"), raggedRows: true, emit: emit, handle: { row, out in
                try mapper.map(&row, &out, emit)
            }, rows: { mapper.tally })
        if !mapper.sawMeta {
            throw InputError(file: options.path, reason: "no '\"meta\";\"<version>\"' row: not a Diaguard backup")
        }
    }
}

/// Rows of a Diaguard backup → records. An entry's time and note hold for the rows after it.
struct DiaguardRowMapper {
    typealias L = DiaguardLayout
    let options: CSVCommonOptions
    let file: Symbol
    private var placer: LocalTimePlacer
    /// What became of every data row, by its key or (a measurement) its category; another is unknown.
    private(set) var tally = RowTally(types: L.types)
    private(set) var sawMeta = false
    private var entry: ZoneResolver.Resolved? = nil
    private var entryLine: Int64 = 0
    /// Carbohydrates per 100 g of the user's foods (`food` rows), for the `foodEaten` rows of meals.
    private var foodCarbs: [String: Double] = [:]
    private let source = Symbol("Diaguard"), bloodGlucose = Metrics.bloodGlucose, correction = Symbol("correction")
    private let tag = Symbol("tag"), food = Symbol("food")

    init(options: CSVCommonOptions) {
        self.options = options
        file = Symbol(options.path)
        placer = LocalTimePlacer(zone: options.zone, ambiguous: options.ambiguous, nonexistent: options.nonexistent,
                                 file: options.path, format: "Diaguard")
    }

    mutating func map<Row: TableRow>(_ row: inout Row, _ out: inout BatchBuilder, _ emit: (RecordBatch) throws -> Void) throws {
        var slot = tally.untyped
        let result = Result { try mapRow(row, &slot, &out, emit) }
        try tally.account(slot, result)
    }

    /// nil: not a data row (the meta row, a blank line). `slot`: the row's type.
    private mutating func mapRow<Row: TableRow>(_ row: Row, _ slot: inout Int, _ out: inout BatchBuilder,
                                                _ emit: (RecordBatch) throws -> Void) throws -> RowTally.Outcome? {
        if row.isBlank { return nil }
        let key = row.trimmed(0)
        if ByteText.equals(key, "meta") {
            sawMeta = true
            return nil
        }
        guard let type = L.key(key) else {
            slot = tally.slot(named: key, known: false)
            throw CSVFileRun.Reject("a row of type '\(key.echo)' Diaguard's backup does not write (entry, measurement, "
                + "entryTag, foodEaten, tag or food)")
        }
        switch type {
        case .tag:
            slot = L.slot(.tag)
            return .skipped  // the user's list of labels; an entry's labels are its entryTag rows
        case .food:
            slot = L.slot(.food)
            // The user's food list: not eaten by itself; its carbs per 100 g price the foodEaten rows.
            if row.count >= 5, let carbs = ByteText.double(row.trimmed(4)) { foodCarbs[row.trimmed(1).text] = carbs }
            return .skipped
        case .entry:
            slot = L.slot(.entry)
            return try entryRow(row, &out, emit)
        case .entryTag:
            slot = L.slot(.entryTag)
            let at = try current(row, "entryTag")
            let name = try text(row, 1, "tag")
            try out.add(Event(subject: options.subject, kind: .note, subtype: tag, source: source, start: at.utc,
                              utcOffset: at.offset, note: name, flags: at.flags, provenance: prov(row)), emit)
            return .stored
        case .foodEaten:
            slot = L.slot(.foodEaten)
            return try foodEaten(row, &out, emit)
        case .measurement:
            let category = row.count > 1 ? row.trimmed(1) : UnsafeRawBufferPointer(start: nil, count: 0)
            guard let c = L.category(category) else {
                slot = tally.slot(named: category, known: false)
                throw CSVFileRun.Reject("a measurement of category '\(category.echo)' Diaguard's backup does not write")
            }
            slot = L.slot(c)
            return try measurement(c, row, &out, emit)
        }
    }

    /// An entry: its time holds for the rows below it; its note, when it has one, is a note event.
    private mutating func entryRow<Row: TableRow>(_ row: Row, _ out: inout BatchBuilder,
                                                  _ emit: (RecordBatch) throws -> Void) throws -> RowTally.Outcome {
        entry = nil  // a bad entry row must not lend the previous entry's time to its measurements
        let cell = row.count > 1 ? row.trimmed(1) : UnsafeRawBufferPointer(start: nil, count: 0)
        guard let t = L.timestamp.parse(cell) else {
            throw CSVFileRun.Reject(cell.isEmpty ? "entry without a date" : "unreadable entry date '\(cell.echo)' (yyyy-MM-dd HH:mm:ss expected)")
        }
        let at = try placer.place(t, line: row.line)
        entry = at
        entryLine = row.line
        guard row.count > 2, !row.isEmpty(2) else { return .skipped }  // the time of the rows below, nothing of its own
        try out.add(Event(subject: options.subject, kind: .note, source: source, start: at.utc, utcOffset: at.offset,
                          note: row.trimmed(2).text, flags: at.flags, provenance: prov(row)), emit)
        return .stored
    }

    private mutating func measurement<Row: TableRow>(_ c: DiaguardLayout.Category, _ row: Row, _ out: inout BatchBuilder,
                                                     _ emit: (RecordBatch) throws -> Void) throws -> RowTally.Outcome {
        let at = try current(row, c.rawValue)
        // Each category's values have a fixed count: a row with fewer was cut short.
        guard row.count >= 2 + c.values else {
            throw CSVFileRun.Reject("\(c.rawValue) row with \(row.count - 2) of its \(c.values) values")
        }
        var values = (0.0, 0.0, 0.0)
        for i in 0..<c.values {
            let cell = row.trimmed(2 + i)
            guard let v = ByteText.double(cell), v.isFinite else {
                throw CSVFileRun.Reject("\(c.rawValue) value '\(cell.echo)' is not a number")
            }
            switch i { case 0: values.0 = v; case 1: values.1 = v; default: values.2 = v }
        }
        let p = prov(row)
        func measure(_ metric: Symbol, _ value: Double, _ unit: Symbol, flags extra: RecordFlags = []) throws {
            if let why = Plausibility.problem(metric: metric, value: value, unit: unit) { throw CSVFileRun.Reject(why) }
            try out.add(Measurement(subject: options.subject, metric: metric, source: source, start: at.utc, utcOffset: at.offset,
                                    value: value, unit: unit, flags: at.flags.union(extra), provenance: p), emit)
        }
        func event(_ kind: Event.Kind, _ subtype: Symbol, insulin: Double? = nil, carbs: Double? = nil, minutes: Double? = nil) throws {
            if let why = Plausibility.eventProblem(insulin: insulin, carbs: carbs) { throw CSVFileRun.Reject(why) }
            try out.add(Event(subject: options.subject, kind: kind, subtype: subtype, source: source, start: at.utc,
                              end: minutes.map { at.utc + Int64($0 * 60) }, utcOffset: at.offset, carbs: carbs, insulin: insulin,
                              flags: at.flags, provenance: p), emit)
        }
        switch c {
        case .bloodsugar:
            try measure(bloodGlucose, values.0, CanonicalUnits.glucose, flags: .userEntered)  // Diaguard keeps mg/dL
        case .insulin:
            // bolus; correction; basal — each dose that was given is an insulin event of its own.
            if values.0 < 0 || values.1 < 0 || values.2 < 0 { throw CSVFileRun.Reject("a negative insulin dose") }
            if values.0 == 0, values.1 == 0, values.2 == 0 { return .skipped }
            if values.0 > 0 { try event(.insulin, InsulinKinds.bolus, insulin: values.0) }
            if values.1 > 0 { try event(.insulin, correction, insulin: values.1) }
            if values.2 > 0 { try event(.insulin, InsulinKinds.basal, insulin: values.2) }
        case .meal:
            // 0 g: a meal of foods only (its foodEaten rows), or none.
            if values.0 == 0 { return .skipped }
            try event(.meal, .empty, carbs: values.0)
        case .activity:
            if values.0 == 0 { return .skipped }
            guard Plausibility.durationMinutes.contains(values.0) else { throw CSVFileRun.Reject("activity of \(values.0) minutes") }
            try event(.exercise, .empty, minutes: values.0)
        case .hba1c: try measure(L.hba1c, values.0, L.percent)
        case .weight: try measure(L.bodyMass, values.0, L.kilograms)
        case .pulse: try measure(Metrics.heartRate, values.0, L.perMinute)
        case .pressure:
            try measure(L.systolic, values.0, L.mmHg)
            try measure(L.diastolic, values.1, L.mmHg)
        case .oxygenSaturation: try measure(L.oxygen, values.0 / 100, L.percent)  // stored as a fraction of one
        }
        return .stored
    }

    /// A food eaten with the entry's meal: a meal event named after the food, its carbs from the
    /// food's carbs per 100 g when the backup lists the food (else without carbs), its grams kept.
    private mutating func foodEaten<Row: TableRow>(_ row: Row, _ out: inout BatchBuilder,
                                                   _ emit: (RecordBatch) throws -> Void) throws -> RowTally.Outcome {
        let at = try current(row, "foodEaten")
        let name = try text(row, 1, "food")
        let cell = row.count > 2 ? row.trimmed(2) : UnsafeRawBufferPointer(start: nil, count: 0)
        guard let grams = ByteText.double(cell), Plausibility.mealGrams.contains(grams) else {
            throw CSVFileRun.Reject("foodEaten amount '\(cell.echo)' is not a weight in grams")
        }
        let carbs = foodCarbs[name].map { ($0 * grams / 100 * 10).rounded() / 10 }
        if let why = Plausibility.eventProblem(insulin: nil, carbs: carbs) { throw CSVFileRun.Reject(why) }
        try out.add(Event(subject: options.subject, kind: .meal, subtype: food, source: source, start: at.utc, utcOffset: at.offset,
                          carbs: carbs, note: name, flags: at.flags, provenance: prov(row),
                          metadata: "{\"grams\":\(grams.formattedForJSON)}"), emit)
        return .stored
    }

    private func current<Row: TableRow>(_ row: Row, _ what: String) throws -> ZoneResolver.Resolved {
        guard let entry else { throw CSVFileRun.Reject("\(what) row without a readable entry row above it (no time)") }
        return entry
    }

    private func text<Row: TableRow>(_ row: Row, _ i: Int, _ what: String) throws -> String {
        guard row.count > i, !row.isEmpty(i) else { throw CSVFileRun.Reject("row without its \(what) name") }
        return row.trimmed(i).text
    }

    private func prov<Row: TableRow>(_ row: Row) -> Provenance { Provenance(file: file, line: row.line) }
}

/// The backup's row keys and measurement categories as Diaguard writes them (its `CsvExport`,
/// `getKeyForBackup`/`getValuesForBackup`), and the metrics they become.
enum DiaguardLayout {
    enum Key { case entry, measurement, entryTag, foodEaten, tag, food }
    enum Category: String, CaseIterable {
        case bloodsugar, insulin, meal, activity, hba1c, weight, pulse, pressure
        case oxygenSaturation = "oxygen_saturation"
        /// How many values the category writes after its name.
        var values: Int { self == .insulin ? 3 : self == .pressure ? 2 : 1 }
    }

    static let timestamp = try! TimestampPattern("%Y-%m-%d %H:%M:%S")
    static let keys: [Key] = [.entry, .measurement, .entryTag, .foodEaten, .tag, .food]
    /// Lower-cased bytes, made once, so a row's key and category are found without allocating.
    static let keyWords: [[UInt8]] = ["entry", "measurement", "entrytag", "foodeaten", "tag", "food"].map { Array($0.utf8) }
    /// Tally slots: the keys other than `measurement`, then every category.
    static let types: [String] = ["entry", "entryTag", "foodEaten", "tag", "food"] + Category.allCases.map(\.rawValue)

    static func key(_ b: UnsafeRawBufferPointer) -> Key? { ByteWords.index(in: keyWords, of: b).map { keys[$0] } }
    static let categories: [Category] = Category.allCases
    static let categoryWords: [[UInt8]] = categories.map { Array($0.rawValue.utf8) }

    static func category(_ b: UnsafeRawBufferPointer) -> Category? { ByteWords.index(in: categoryWords, of: b).map { categories[$0] } }
    static func slot(_ k: Key) -> Int {
        switch k {
        case .entry: return 0
        case .entryTag: return 1
        case .foodEaten: return 2
        case .tag: return 3
        case .food, .measurement: return 4
        }
    }
    static func slot(_ c: Category) -> Int { 5 + categories.firstIndex(of: c)! }

    static let hba1c = Symbol("hba1c"), bodyMass = Symbol("body_mass"), systolic = Symbol("blood_pressure_systolic")
    static let diastolic = Symbol("blood_pressure_diastolic"), oxygen = Symbol("oxygen_saturation")
    static let percent = Symbol("%"), kilograms = Symbol("kg"), perMinute = Symbol("count/min"), mmHg = Symbol("mmHg")
}
