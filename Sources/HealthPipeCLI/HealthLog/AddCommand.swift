import ArgumentParser
import Foundation
import HealthLog
import HealthPipeCore
import SQLiteStore

/// `healthpipe add`: what the seeds' forms log by hand — insulin, meals, exercise, episodes.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Log insulin, a meal, exercise or an illness/stress episode by hand (each gets an id).",
        discussion: "Change or delete an entry later with `healthpipe entries edit|delete ID`; list them with `healthpipe entries list`.",
        subcommands: [AddInsulin.self, AddMeal.self, AddExercise.self, AddEpisode.self])
}

/// Flags of every manual entry.
struct EntryFlags: ParsableArguments {
    @Option(help: "When: now (default), 08:12, 2024-03-05 08:12, or with an offset.") var at: String = "now"
    @Option(help: "Free text.") var note: String?
    @Option(help: "The entry's id: an entry with this id is replaced (default: kind and local time, e.g. insulin-20240305-0812).")
    var id: String?
}

struct AddInsulin: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "insulin", abstract: "Log an insulin dose (units).")
    @OptionGroup var log: LogOptions
    @Argument(help: "Units of insulin, e.g. 4.5.", transform: NumberRule.insulinDose.flag) var units: NumberFlag
    @Flag(help: "Basal (long-acting) rather than bolus insulin.") var basal = false
    @OptionGroup var entry: EntryFlags

    func run() throws {
        var e = EntryRun(command: "healthpipe add insulin")
        e.set("units", units.value, flag: "units")
        e.set("basal", flag: basal)
        try ManualEntryRun.store(.insulin, e, at: entry.at, note: entry.note, id: entry.id, log)
    }
}

struct AddMeal: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "meal", abstract: "Log a meal (carbohydrates, protein, fat in g).")
    @OptionGroup var log: LogOptions
    @Option(help: "Carbohydrates (g).", transform: NumberRule.mealGrams.flag) var carbs: NumberFlag
    @Option(help: "Protein (g).", transform: NumberRule.mealGrams.flag) var protein: NumberFlag?
    @Option(help: "Fat (g).", transform: NumberRule.mealGrams.flag) var fat: NumberFlag?
    @Option(help: "What it was, e.g. Pasta.") var name: String?
    @OptionGroup var entry: EntryFlags

    func run() throws {
        var e = EntryRun(command: "healthpipe add meal")
        e.set("carbs", carbs.value, flag: "--carbs")
        e.set("protein", protein?.value, flag: "--protein")
        e.set("fat", fat?.value, flag: "--fat")
        e.set("name", name, flag: "--name")
        try ManualEntryRun.store(.meal, e, at: entry.at, note: entry.note, id: entry.id, log)
    }
}

struct AddExercise: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "exercise", abstract: "Log exercise (name, minutes, intensity).")
    @OptionGroup var log: LogOptions
    @Option(help: "What it was, e.g. Cycling.") var name: String?
    @Option(help: "How long (minutes).", transform: NumberRule.durationMinutes.flag) var minutes: NumberFlag
    @Option(help: "How hard.") var intensity: ExerciseIntensity?
    @OptionGroup var entry: EntryFlags

    func run() throws {
        var e = EntryRun(command: "healthpipe add exercise")
        e.set("name", name, flag: "--name")
        e.set("minutes", minutes.value, flag: "--minutes")
        e.set("intensity", intensity?.text, flag: "--intensity")
        try ManualEntryRun.store(.exercise, e, at: entry.at, note: entry.note, id: entry.id, log)
    }
}

struct AddEpisode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episode", abstract: "Log an illness or stress episode; without --end it stays open until `healthpipe episode end`.")
    @OptionGroup var log: LogOptions
    @Argument(help: "The episode's kind.") var kind: EpisodeKindArgument
    @Option(help: "When it began (default now).") var start: String = "now"
    @Option(help: "When it ended.") var end: String?
    @Option(help: "Free text.") var note: String?
    @Option(help: "The entry's id (default: kind and local start time).") var id: String?

    func run() throws {
        let k = kind.kind
        var e = EntryRun(command: "healthpipe add episode")
        let now = nowToTheMinute
        if let end { e.at("end", try log.time(end, flag: "--end", now: now), flag: "--end") }
        try ManualEntryRun.store(k, e, at: start, note: note, id: id, log, atFlag: "--start")
    }
}

/// Storing a manual entry: its kind and time, the checks against what is stored, the message.
enum ManualEntryRun {
    static func store(_ kind: EntryKind, _ run: EntryRun, at text: String, note: String?, id given: String?, _ log: LogOptions,
                      atFlag: String = "--at") throws {
        var e = run
        let at = try log.time(text, flag: atFlag, now: nowToTheMinute)
        let id = given ?? EntryIDs.make(kind, utc: at.utc, offset: at.offset)
        e.set("kind", kind.rawValue, flag: kind.rawValue)
        e.set("id", id, flag: "--id")
        e.at("at", at, flag: atFlag)
        e.set("note", note, flag: "--note")
        try e.run(log, done: "\(kind.rawValue) \(id) stored: \(LocalTimeText.wallClock(utc: at.utc, offset: at.offset))") { batch in
            guard let entry = batch.entries.first else { return }
            try EntryChecks.check(entry, replacing: given != nil, log: log, command: e.command)
        }
    }
}

/// What a typed entry must not do to entries already stored.
enum EntryChecks {
    static func check(_ entry: ManualEntry, replacing: Bool, log: LogOptions, command: String) throws {
        guard FileManager.default.fileExists(atPath: log.dbPath) else { return }
        let q = try log.queries()
        let e = entry.event
        let when = LocalTimeText.wallClock(utc: e.start, offset: e.utcOffset)
        if let owner = try q.entryID(owning: e), owner != entry.id {
            throw refusal(command, "this \(entry.kindName) at \(when) is already stored as '\(owner)': change it with "
                          + "`healthpipe entries edit \(owner)`")
        }
        if !replacing, let stored = try q.entry(subject: log.who, id: entry.id), !same(stored.event, e) {
            throw refusal(command, "another \(entry.kindName) at \(when) is already stored (id \(entry.id)): "
                          + "`healthpipe entries edit \(entry.id)` changes it, --id NAME stores this one beside it")
        }
        if EpisodeSpan.isOpen(e), let open = try q.openEpisode(subject: log.who, subtype: e.subtype.text), open.id != entry.id {
            throw refusal(command, "\(e.subtype.text == "illness" ? "an" : "a") \(e.subtype.text) episode is already open since "
                          + "\(LocalTimeText.wallClock(utc: open.event.start, offset: open.event.utcOffset)) (id \(open.id)): "
                          + "end it with `healthpipe episode end \(e.subtype.text)`")
        }
    }

    /// The same entry typed again: every field the entry holds.
    static func same(_ a: Event, _ b: Event) -> Bool {
        a.kind == b.kind && a.subtype == b.subtype && a.start == b.start && a.end == b.end && a.insulin == b.insulin
            && a.carbs == b.carbs && a.protein == b.protein && a.fat == b.fat && a.intensity == b.intensity && a.note == b.note
            && a.flags.contains(.openEnded) == b.flags.contains(.openEnded)
    }
}
