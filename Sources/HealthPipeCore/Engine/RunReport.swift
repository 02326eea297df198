/// What a run did, per stage and per input file: printed at the end and written with `--report`.
public struct RunReport: Sendable {
    public struct StageReport: Sendable {
        public var name: String
        public var type: String
        public var role: StageRole
        public var recordsIn: Int64
        public var recordsOut: Int64
        public var quarantined: Int64
        public var skipped: Int64
        public var seconds: Double
        public var warnings: [String]
        public var sampleErrors: [RowError]
    }

    public var stages: [StageReport] = []
    public var inputs: [InputFileInfo] = []
    public var outcome: RunOutcome = .completed
    public var error: String?
    public var seconds: Double = 0
    public var quarantinePath: String = ""

    public init() {}

    public var quarantined: Int64 { stages.reduce(0) { $0 + $1.quarantined } }
    public var skipped: Int64 { stages.reduce(0) { $0 + $1.skipped } }

    /// Rows of a type their source neither maps nor lists as not data (`RowTypeCount.known`).
    public var unknownTypeRows: Int64 {
        inputs.reduce(0) { n, f in f.rowTypes.reduce(n) { $0 + ($1.known ? 0 : $1.rows) } }
    }

    /// 0 ok, 1 failed or interrupted, 3 finished with quarantined rows or rows of an unknown type
    /// (2 is for config errors).
    public var exitCode: Int32 {
        switch outcome {
        case .failed, .interrupted: return 1
        case .completed: return quarantined > 0 || unknownTypeRows > 0 ? 3 : 0
        }
    }

    public func json() -> [UInt8] {
        func millis(_ s: Double) -> Double { (s * 1000).rounded() / 1000 }
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.field("outcome", outcome.rawValue)
        w.field("exit_code", exitCode)
        w.field("error", error)
        w.field("seconds", millis(seconds))
        w.field("quarantined", quarantined)
        w.field("skipped", skipped)
        w.field("unknown_type_rows", unknownTypeRows)
        w.field("quarantine_file", quarantined > 0 ? quarantinePath : nil)
        w.objects("stages", stages) { w, s in
            w.field("name", s.name); w.field("type", s.type); w.field("role", s.role.rawValue)
            w.field("records_in", s.recordsIn); w.field("records_out", s.recordsOut)
            w.field("quarantined", s.quarantined); w.field("skipped", s.skipped)
            w.field("seconds", millis(s.seconds))
            w.array("warnings", s.warnings) { w, m in w.string(m) }
        }
        w.objects("inputs", inputs) { w, f in
            w.field("path", f.path); w.field("format", f.format); w.field("size", f.size); w.field("hash", f.hash)
            w.field("rows_read", f.rowsRead); w.field("measurements", f.measurements); w.field("events", f.events)
            w.field("rejected", f.rejected)
            if f.accounted {
                w.field("stored", f.stored); w.field("skipped", f.skipped)
                w.objects("row_types", f.rowTypes) { w, t in
                    w.field("type", t.type); w.field("stored", t.stored); w.field("quarantined", t.quarantined)
                    w.field("skipped", t.skipped); w.field("known", t.known)
                }
            }
        }
        w.endObject()
        w.newline()
        return w.bytes
    }

    /// A human summary for the terminal.
    public func summary() -> String {
        var lines: [String] = []
        for f in inputs {
            guard f.accounted else {
                lines.append("\(f.path) [\(f.format)]: \(f.rowsRead) rows → \(f.measurements) measurements, \(f.events) events"
                             + (f.rejected > 0 ? ", \(f.rejected) rejected" : ""))
                continue
            }
            // Every data row in one of three places, so the line adds up.
            lines.append("\(f.path) [\(f.format)]: \(f.stored + f.rejected + f.skipped) data rows = \(f.stored) stored + "
                         + "\(f.rejected) quarantined + \(f.skipped) skipped → \(f.measurements) measurements, \(f.events) events")
            lines.append(contentsOf: Self.typeLines(f.rowTypes))
        }
        let nameWidth = max(5, stages.map(\.name.count).max() ?? 5)
        let typeWidth = max(4, stages.map(\.type.count).max() ?? 4) + 2
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
        func lpad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
        lines.append(pad("stage", nameWidth) + "  " + pad("type", typeWidth) + lpad("in", 10) + lpad("out", 10) + lpad("bad", 7) + lpad("sec", 8))
        for s in stages {
            let secs = String(Double(Int(s.seconds * 100)) / 100)
            lines.append(pad(s.name, nameWidth) + "  " + pad(s.type, typeWidth) + lpad(String(s.recordsIn), 10)
                         + lpad(String(s.recordsOut), 10) + lpad(String(s.quarantined + s.skipped), 7) + lpad(secs, 8))
            for w in s.warnings { lines.append("  warning: \(w)") }
            for e in s.sampleErrors { lines.append("  rejected \(e.description)") }
        }
        var tail = "\(outcome.rawValue) in \(String(Double(Int(seconds * 100)) / 100)) s"
        if quarantined > 0 { tail += "; \(quarantined) rows quarantined to \(quarantinePath)" }
        if skipped > 0 { tail += "; \(skipped) rows skipped" }
        if unknownTypeRows > 0 { tail += "; \(unknownTypeRows) rows of an unknown type" }
        if let error { tail += "\nerror: \(error)" }
        lines.append(tail)
        return lines.joined(separator: "\n")
    }

    /// One line per row type (most rows first, at most 30): what became of its rows.
    static func typeLines(_ types: [RowTypeCount]) -> [String] {
        guard types.contains(where: { !$0.type.isEmpty }) else { return [] }
        let sorted = types.sorted { ($0.known ? 1 : 0, -$0.rows, $0.type) < ($1.known ? 1 : 0, -$1.rows, $1.type) }
        var lines = sorted.prefix(30).map { t -> String in
            var parts: [String] = []
            if t.stored > 0 { parts.append("\(t.stored) stored") }
            if t.quarantined > 0 { parts.append("\(t.quarantined) quarantined") }
            if t.skipped > 0 { parts.append("\(t.skipped) skipped") }
            let name = t.type.isEmpty ? "(no type)" : EchoText.cap(t.type, to: 60)
            return "  \(name): " + parts.joined(separator: ", ") + (t.known ? "" : " (unknown type)")
        }
        if sorted.count > 30 { lines.append("  … \(sorted.count - 30) more types") }
        return lines
    }
}
