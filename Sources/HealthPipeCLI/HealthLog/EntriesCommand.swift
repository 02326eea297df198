import ArgumentParser
import Foundation
import HealthLog
import HealthPipeCore
import SQLiteStore

/// `healthpipe entries`: the manual entries by id — list, change, delete.
struct EntriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entries", abstract: "List, change or delete manual entries (insulin, meals, exercise, episodes) by id.",
        subcommands: [EntriesList.self, EntriesEdit.self, EntriesDelete.self])
}

struct EntriesList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List manual entries, oldest first.")
    @OptionGroup var log: LogOptions
    @OptionGroup var range: DayRange
    @Option(help: "Only this kind.") var kind: EntryKindArgument?
    @Flag(help: "One JSON object per entry and line.") var json = false

    func run() throws {
        let wanted = kind?.kind
        let q = try log.queries()
        let who = try log.who  // resolved once: it reads the store
        let days = try range.resolve(log, span: DayRange.everything) ?? (0...0)
        var out = ""
        var w = JSONWriter(capacity: 512)
        for s in try q.entries(subject: who, fromDay: days.lowerBound, toDay: days.upperBound) {
            guard let k = EntryKind(stored: s.event.kind.rawValue, subtype: s.event.subtype.text), wanted.map({ $0 == k }) ?? true else { continue }
            if json {
                w.reset()
                EntryText.json(s, kind: k, subject: who, into: &w)
                w.newline()
                out += String(decoding: w.bytes, as: UTF8.self)
            } else {
                out += "\(LocalTimeText.wallClock(utc: s.event.start, offset: s.event.utcOffset))  \(s.id)  \(EntryText.describe(s.event, kind: k))\n"
            }
        }
        print(out, terminator: "")
    }
}

struct EntriesDelete: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a manual entry.")
    @OptionGroup var log: LogOptions
    @Argument(help: "The entry's id.") var entryID: String

    func run() throws {
        try log.delete("entry", id: entryID, with: HealthLogEdits.deleteEntry)
    }
}

struct EntriesEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a manual entry: give only what changes (flags of its kind).")
    @OptionGroup var log: LogOptions
    @Argument(help: "The entry's id.") var entryID: String
    @Option(help: "New time (an episode's start).") var at: String?
    @Option(help: "Insulin units.", transform: NumberRule.insulinDose.flag) var units: NumberFlag?
    @Flag(inversion: .prefixedNo, help: "Insulin: basal rather than bolus.") var basal: Bool?
    @Option(help: "Meal carbohydrates (g).", transform: NumberRule.mealGrams.flag) var carbs: NumberFlag?
    @Option(help: "Meal protein (g).", transform: NumberRule.mealGrams.flag) var protein: NumberFlag?
    @Option(help: "Meal fat (g).", transform: NumberRule.mealGrams.flag) var fat: NumberFlag?
    @Option(help: "Meal or exercise name.") var name: String?
    @Option(help: "Exercise minutes.", transform: NumberRule.durationMinutes.flag) var minutes: NumberFlag?
    @Option(help: "Exercise intensity.") var intensity: ExerciseIntensity?
    @Option(help: "Episode end.") var end: String?
    @Option(help: "Note text.") var note: String?

    func run() throws {
        guard let stored = try log.queries().entry(subject: log.who, id: entryID),
              let kind = EntryKind(stored: stored.event.kind.rawValue, subtype: stored.event.subtype.text) else {
            throw missing("entry", entryID, subject: try log.who)
        }
        let allowed: [EntryKind: Set<String>] = [
            .insulin: ["--units", "--basal"], .meal: ["--carbs", "--protein", "--fat", "--name"],
            .exercise: ["--name", "--minutes", "--intensity"], .illness: ["--end"], .stress: ["--end"],
        ]
        let given: [(String, Bool)] = [("--units", units != nil), ("--basal", basal != nil), ("--carbs", carbs != nil),
                                       ("--protein", protein != nil), ("--fat", fat != nil), ("--name", name != nil),
                                       ("--minutes", minutes != nil), ("--intensity", intensity != nil), ("--end", end != nil)]
        for (flag, isSet) in given where isSet && !(allowed[kind]?.contains(flag) ?? false) {
            throw usage("\(flag): entry \(entryID) is \(kind.withArticle) entry, which has no \(flag)")
        }
        let now = nowToTheMinute
        var e = EntryRun(command: "healthpipe entries edit")
        let old = stored.event
        let start = try at.map { try log.time($0, flag: "--at", now: now) } ?? ZoneResolver.Resolved(utc: old.start, offset: old.utcOffset, flags: [])
        e.set("kind", kind.rawValue, flag: "entries edit")
        e.set("id", entryID, flag: entryID)
        e.at("at", start, flag: "--at")
        e.set("note", note ?? (kind == .meal ? nil : old.note), flag: "--note")
        switch kind {
        case .insulin:
            e.set("units", units?.value ?? old.insulin, flag: "--units")
            e.set("basal", flag: basal ?? (old.subtype == InsulinKinds.basal))
        case .meal:
            e.set("carbs", carbs?.value ?? old.carbs, flag: "--carbs")
            e.set("protein", protein?.value ?? old.protein, flag: "--protein")
            e.set("fat", fat?.value ?? old.fat, flag: "--fat")
            e.set("name", name ?? old.note, flag: "--name")
        case .exercise:
            e.set("name", name ?? (old.subtype.isEmpty ? nil : old.subtype.text), flag: "--name")
            e.set("minutes", minutes?.value ?? Double(old.end - old.start) / 60, flag: "--minutes")
            e.set("intensity", intensity?.text ?? (old.intensity.isEmpty ? nil : old.intensity.text), flag: "--intensity")
        case .illness, .stress:
            if let end { e.at("end", try log.time(end, flag: "--end", now: now), flag: "--end") }
            else if !old.flags.contains(.openEnded) { e.at("end", .init(utc: old.end, offset: old.utcOffset, flags: []), flag: "--end") }
        case .report: break
        }
        try e.run(log, done: "entry \(entryID) changed") { batch in
            guard let entry = batch.entries.first else { return }
            try EntryChecks.check(entry, replacing: true, log: log, command: e.command)
        }
    }
}

/// `healthpipe episode end illness|stress`.
struct EpisodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "episode", abstract: "End an open illness or stress episode.",
                                                    subcommands: [EpisodeEnd.self])
}

struct EpisodeEnd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "end", abstract: "End the open illness or stress episode.")
    @OptionGroup var log: LogOptions
    @Argument(help: "The episode's kind.") var kind: EpisodeKindArgument
    @Option(help: "When it ended (default now).") var at: String = "now"

    func run() throws {
        let k = kind.kind
        guard FileManager.default.fileExists(atPath: log.dbPath),
              let open = try log.queries().openEpisode(subject: log.who, subtype: k.rawValue) else {
            let who = try log.who
            printError("no open \(k.rawValue) episode" + (who == SubjectRule.newStore ? "" : " for subject \(who)"))
            throw ExitCode(1)
        }
        let end = try log.time(at, flag: "--at", now: nowToTheMinute)
        var e = EntryRun(command: "healthpipe episode end")
        e.set("kind", k.rawValue, flag: "episode end")
        e.set("id", open.id, flag: open.id)
        e.at("at", .init(utc: open.event.start, offset: open.event.utcOffset, flags: []), flag: "the episode's start")
        e.at("end", end, flag: "--at")
        e.set("note", open.event.note, flag: "--note")
        let days = LocalDays.day(end.utc, end.offset) - open.event.localDay + 1
        try e.run(log, done: "\(k.rawValue) episode \(open.id) ended: \(LocalTimeText.wallClock(utc: open.event.start, offset: open.event.utcOffset)) – "
                  + "\(LocalTimeText.wallClock(utc: end.utc, offset: end.offset)) (\(days) day\(days == 1 ? "" : "s"))")
    }
}

/// How entries read in lists (`entries list`, the app's day).
package enum EntryText {
    package static func describe(_ e: Event, kind: EntryKind) -> String {
        func n(_ v: Double?) -> String { v.map { HealthValues.text(($0 * 100).rounded() / 100) } ?? "" }
        switch kind {
        case .insulin: return "insulin \(n(e.insulin)) U \(e.subtype.text)" + (e.note.map { "  — \($0)" } ?? "")
        case .meal:
            var s = "meal" + (e.note.map { " \($0)" } ?? "") + ": carbs \(n(e.carbs)) g"
            if let p = e.protein { s += ", protein \(n(p)) g" }
            if let f = e.fat { s += ", fat \(n(f)) g" }
            return s
        case .exercise:
            return "exercise" + (e.subtype.isEmpty ? "" : " \(e.subtype.text)") + " \(n(Double(e.end - e.start) / 60)) min"
                + (e.intensity.isEmpty ? "" : ", \(e.intensity.text)") + (e.note.map { "  — \($0)" } ?? "")
        case .illness, .stress:
            let span = e.flags.contains(.openEnded) ? "open since \(LocalTimeText.wallClock(utc: e.start, offset: e.utcOffset))"
                : "until \(LocalTimeText.wallClock(utc: e.end, offset: e.utcOffset))"
            return "\(kind.rawValue) episode, \(span)" + (e.note.map { "  — \($0)" } ?? "")
        case .report: return "report"
        }
    }

    static func json(_ s: HealthLogQueries.StoredEntry, kind: EntryKind, subject: String, into w: inout JSONWriter) {
        let e = s.event
        w.beginObject()
        w.key("id"); w.string(s.id)
        w.key("subject"); w.string(subject)
        w.key("kind"); w.string(kind.rawValue)
        w.key("start"); w.string(LocalTimeText.format(utc: e.start, offset: e.utcOffset))
        w.key("end"); if kind.isEpisode && e.flags.contains(.openEnded) { w.null() } else { w.string(LocalTimeText.format(utc: e.end, offset: e.utcOffset)) }
        switch kind {
        case .insulin: w.key("units"); w.double(e.insulin); w.key("type"); w.string(e.subtype.text)
        case .meal: w.key("name"); w.string(e.note); w.key("carbs_g"); w.double(e.carbs); w.key("protein_g"); w.double(e.protein); w.key("fat_g"); w.double(e.fat)
        case .exercise: w.key("name"); w.string(e.subtype.isEmpty ? nil : e.subtype.text); w.key("minutes"); w.double(Double(e.end - e.start) / 60)
            w.key("intensity"); w.string(e.intensity.isEmpty ? nil : e.intensity.text)
        case .illness, .stress: w.key("open"); w.bool(e.flags.contains(.openEnded))
            w.key("days"); w.int(LocalDays.day(e.end, e.utcOffset) - e.localDay + 1)
        case .report: break
        }
        if kind != .meal { w.key("note"); w.string(e.note) }
        w.endObject()
    }
}
