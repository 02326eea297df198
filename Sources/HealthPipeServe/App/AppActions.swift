import Foundation
import HealthPipeCLI
import HealthPipeCore

/// The app's forms as `healthpipe` command lines: each form runs the CLI command that does the same
/// thing (`add insulin`, `entries edit`, `favourite add`, `reports add`, `alerts snooze`, `alerts set` …), so a
/// form stores, checks and refuses exactly as the command does. Values go as `--flag=value` (or
/// after `--`), so no field is ever read as a flag; empty fields are left out.
struct AppActions {
    let database: String
    let subject: String
    /// `serve --timezone`: the zone of a person without one of their own (`healthpipe person`).
    var defaultTimezone: String?
    /// The person's today: an episode switched on another day is that day's.
    var today: Int64

    /// The command line of a form posted to `/app/<action>`; nil for an unknown action.
    func arguments(_ action: String, _ f: FormBody) -> [String]? {
        var a: [String]
        switch action {
        case "insulin":
            a = ["add", "insulin"] + common() + opt("at", time(f["at"])) + opt("note", f["note"]) + (f.isOn("basal") ? ["--basal"] : [])
            a += ["--", f["units"] ?? ""]
            return a
        case "meal":
            return ["add", "meal"] + common() + opt("carbs", f["carbs"]) + opt("protein", f["protein"]) + opt("fat", f["fat"])
                + opt("name", f["name"]) + opt("at", time(f["at"]))
        case "exercise":
            return ["add", "exercise"] + common() + opt("name", f["name"]) + opt("minutes", f["minutes"]) + opt("intensity", f["intensity"])
                + opt("at", time(f["at"]))
        case "entries/edit":
            a = ["entries", "edit"] + common() + opt("at", time(f["at"])) + opt("units", f["units"])
            if f.fields["units"] != nil { a.append(f.isOn("basal") ? "--basal" : "--no-basal") }
            a += opt("carbs", f["carbs"]) + opt("protein", f["protein"]) + opt("fat", f["fat"]) + opt("name", f["name"])
                + opt("minutes", f["minutes"]) + opt("intensity", f["intensity"])
            return a + ["--", f["id"] ?? ""]
        case "entries/delete":
            return ["entries", "delete"] + common() + ["--", f["id"] ?? ""]
        case "episode":
            // The day on screen (`EpisodeSwitch`): today starts or ends now; another day is that whole day.
            guard let kind = f["kind"], kind == "illness" || kind == "stress" else { return nil }
            let day = f["day"].flatMap { CivilDate.days(fromISO: $0) }.flatMap { $0 == today ? nil : CivilDate.isoDate(fromDays: $0) }
            if f["on"] == "1" {
                let span: [String] = day.map { ["--start=" + $0 + " 00:00", "--end=" + $0 + " 23:59"] } ?? []
                return ["add", "episode"] + common() + span + ["--", kind]
            }
            if let id = f["id"] { return ["entries", "delete"] + common() + ["--", id] }
            let at: [String] = day.map { ["--at=" + $0 + " 00:00"] } ?? []
            return ["episode", "end"] + common() + at + ["--", kind]
        case "favourite":
            guard let day = f["day"] else { return nil }
            return f["star"] == "0" ? ["favourite", "remove"] + common() + ["--", day]
                : ["favourite", "add"] + common() + opt("note", f["note"]) + ["--", day]
        case "reports/add", "reports/edit":
            let values = ReportForm.values(f)
            if action == "reports/add" {
                return ["reports", "add"] + common() + values.map { "--value=" + $0 } + opt("note", f["note"]) + opt("at", time(f["at"]))
            }
            a = ["reports", "edit"] + common() + values.map { "--value=" + $0 } + opt("at", time(f["at"]))
            a += ReportForm.removed(f).map { "--remove=" + $0 }
            a += f["note"].map { ["--note=" + $0] } ?? (f.fields["note"] != nil ? ["--clear-note"] : [])
            return a + ["--", f["id"] ?? ""]
        case "reports/delete":
            return ["reports", "delete"] + common() + ["--", f["id"] ?? ""]
        case "snooze":
            return ["alerts", "snooze"] + common() + opt("until", f["until"])
        case "settings/alerts":
            // The database's settings, not one subject's: no --subject.
            return ["alerts", "set", "--db=" + database] + AlertSettingsFields.arguments(f)
        default:
            return nil
        }
    }

    /// The form's person and database; typed times are read in the person's zone, else the server's `--timezone`.
    private func common() -> [String] { ["--db=" + database, "--subject=" + subject] + opt("default-timezone", defaultTimezone) }

    private func opt(_ name: String, _ value: String?) -> [String] { value.map { ["--\(name)=" + $0] } ?? [] }

    /// A browser's `datetime-local` (2024-03-05T08:12) as the CLI reads times (2024-03-05 08:12).
    private func time(_ value: String?) -> String? { value?.replacingOccurrences(of: "T", with: " ") }

    /// Runs a form's command on the writer thread; the outcome carries the command's own message.
    static func run(_ arguments: [String]) async throws -> EmbeddedCommand.Outcome {
        try await StoreWork.write { EmbeddedCommand.run(arguments) }
    }
}

/// A report's values as the form sends them: rows `metric_N`, `value_N` (with an optional unit,
/// e.g. 100.4degF), `importance_N`, typed as the CLI's `metric=number[unit]:importance`; and the
/// metrics a change takes out (`remove_N` beside a stored value).
enum ReportForm {
    static let rows = 6

    static func values(_ f: FormBody) -> [String] {
        (0..<rows).compactMap { i in
            guard let metric = f["metric_\(i)"], let value = f["value_\(i)"], !f.isOn("remove_\(i)") else { return nil }
            return metric + "=" + value.replacingOccurrences(of: " ", with: "") + ":" + (f["importance_\(i)"] ?? "3")
        }
    }

    static func removed(_ f: FormBody) -> [String] {
        (0..<rows).compactMap { i in f.isOn("remove_\(i)") ? f["metric_\(i)"] : nil }
    }
}
