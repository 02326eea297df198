import Foundation
import HealthPipeCore

/// Compares a source's run on one input with its run by path (`SourceVerifier`): records, provenance,
/// quarantined rows, warnings, the error and the registered input, with each run's own input name
/// checked where the source reports it and then set aside.
struct RunComparison {
    let expected: SourceVerifier.Run
    let actual: SourceVerifier.Run
    private static let placeholder = "<input>"

    func differences() -> [String] {
        var found: [String] = []
        let label = "\(actual.way.rawValue) (\(actual.inputName))"
        let a = expected.output, b = actual.output
        let errorA = describe(a.error, expected.inputName), errorB = describe(b.error, actual.inputName)
        if errorA != errorB { found.append("\(label): the error differs: by path \(errorA), here \(errorB)") }
        found += records(a.batches, expected.inputName, b.batches, actual.inputName, label)
        let qa = rows(a, expected.inputName), qb = rows(b, actual.inputName)
        if qa != qb {
            let i = Self.firstDifference(qa, qb)
            found.append("\(label): quarantined rows differ (\(qa.count) by path, \(qb.count) here); first difference: "
                         + "by path \(i < qa.count ? qa[i] : "none"), here \(i < qb.count ? qb[i] : "none")")
        }
        let wa = a.context.warnings.map { text($0, expected.inputName) }, wb = b.context.warnings.map { text($0, actual.inputName) }
        if wa != wb { found.append("\(label): warnings differ: by path \(wa), here \(wb)") }
        if (a.context.quarantined, a.context.skipped) != (b.context.quarantined, b.context.skipped) {
            found.append("\(label): quarantined/skipped counts differ: by path \(a.context.quarantined)/\(a.context.skipped), "
                         + "here \(b.context.quarantined)/\(b.context.skipped)")
        }
        let ia = inputs(a, expected.inputName), ib = inputs(b, actual.inputName)
        if ia != ib { found.append("\(label): registered inputs differ: by path \(ia), here \(ib)") }
        return found
    }

    /// An error as text with its input's name set aside (nil: the run ended normally).
    private func describe(_ error: (any Error)?, _ name: String) -> String {
        error.map { text(String(describing: $0), name) } ?? "no error"
    }

    /// `text` with the input's name replaced: as a leading `name:` always, anywhere unless it is `-`.
    private func text(_ text: String, _ name: String) -> String {
        if text.hasPrefix(name + ":") { return Self.placeholder + text.dropFirst(name.count) }
        return name == "-" ? text : text.replacingOccurrences(of: name, with: Self.placeholder)
    }

    /// A file name a source reported with the input's name set aside when it names its input (or an
    /// entry inside it); any other name is data the records carry (an NDJSON record's own provenance)
    /// and must be the same in both runs.
    private func file(_ reported: String, _ name: String) -> String {
        reported.hasPrefix(name) ? Self.placeholder + reported.dropFirst(name.count) : reported
    }

    private func rows(_ output: SourceOutput, _ name: String) -> [String] {
        output.quarantined.map { row in
            let reported = file(row["file"] as? String ?? "", name)
            return "line \(row["line"] as? Int ?? -1) of \(reported): \(text(row["reason"] as? String ?? "", name)) | raw: \(row["raw"] as? String ?? "")"
        }
    }

    private func inputs(_ output: SourceOutput, _ name: String) -> [String] {
        output.context.inputs.map {
            "\(file($0.path, name)) \($0.format) hash \($0.hash) rows \($0.rowsRead) measurements \($0.measurements) "
                + "events \($0.events) rejected \($0.rejected)"  // size: a stream's is not known (0)
        }
    }

    /// Every record of every kind, in order, with provenance naming its own input set aside.
    private func records(_ a: [RecordBatch], _ nameA: String, _ b: [RecordBatch], _ nameB: String, _ label: String) -> [String] {
        var found: [String] = []
        func same<T: Hashable>(_ kind: String, _ path: KeyPath<RecordBatch, [T]>, _ provenance: WritableKeyPath<T, Provenance>?) {
            var xs = a.flatMap { $0[keyPath: path] }, ys = b.flatMap { $0[keyPath: path] }
            if let provenance {
                for i in xs.indices { xs[i][keyPath: provenance] = set(xs[i][keyPath: provenance], nameA) }
                for i in ys.indices { ys[i][keyPath: provenance] = set(ys[i][keyPath: provenance], nameB) }
            }
            guard xs != ys else { return }
            let i = Self.firstDifference(xs, ys)
            found.append("\(label): \(kind) differ (\(xs.count) by path, \(ys.count) here); first difference at #\(i): "
                         + "by path \(i < xs.count ? String(describing: xs[i]) : "none"), here \(i < ys.count ? String(describing: ys[i]) : "none")")
        }
        same("measurements", \.measurements, \.provenance)
        same("events", \.events, \.provenance)
        same("daily summaries", \.dailySummaries, nil)
        same("profiles", \.profiles, \.provenance)
        same("metric sets", \.metricSets, nil)
        same("forecasts", \.forecasts, nil)
        same("alerts", \.alerts, nil)
        same("motion samples", \.motionSamples, \.provenance)
        same("session progress", \.sessionProgress, nil)
        same("motion sessions", \.motionSessions, \.provenance)
        same("routes", \.routes, \.provenance)
        same("electrocardiograms", \.electrocardiograms, \.provenance)
        same("health reports", \.reports, \.provenance)
        same("manual entries", \.entries, \.event.provenance)
        same("report days", \.reportDays, nil)
        return found
    }

    private static func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
        (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
    }

    private func set(_ p: Provenance, _ name: String) -> Provenance {
        Provenance(file: Symbol(file(p.file.text, name)), line: p.line)
    }
}
