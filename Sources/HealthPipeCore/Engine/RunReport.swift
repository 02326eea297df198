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

    /// 0 ok, 1 failed or interrupted, 3 finished with quarantined rows (2 is for config errors).
    public var exitCode: Int32 {
        switch outcome {
        case .failed, .interrupted: return 1
        case .completed: return quarantined > 0 ? 3 : 0
        }
    }

    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.key("outcome"); w.string(outcome.rawValue)
        w.key("exit_code"); w.int(Int64(exitCode))
        w.key("error"); w.string(error)
        w.key("seconds"); w.double((seconds * 1000).rounded() / 1000)
        w.key("quarantined"); w.int(quarantined)
        w.key("skipped"); w.int(skipped)
        w.key("quarantine_file"); w.string(quarantined > 0 ? quarantinePath : nil)
        w.key("stages"); w.beginArray()
        for s in stages {
            w.beginObject()
            w.key("name"); w.string(s.name)
            w.key("type"); w.string(s.type)
            w.key("role"); w.string(s.role.rawValue)
            w.key("records_in"); w.int(s.recordsIn)
            w.key("records_out"); w.int(s.recordsOut)
            w.key("quarantined"); w.int(s.quarantined)
            w.key("skipped"); w.int(s.skipped)
            w.key("seconds"); w.double((s.seconds * 1000).rounded() / 1000)
            w.key("warnings"); w.beginArray(); for m in s.warnings { w.string(m) }; w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("inputs"); w.beginArray()
        for f in inputs {
            w.beginObject()
            w.key("path"); w.string(f.path)
            w.key("format"); w.string(f.format)
            w.key("size"); w.int(f.size)
            w.key("hash"); w.string(f.hash)
            w.key("rows_read"); w.int(f.rowsRead)
            w.key("measurements"); w.int(f.measurements)
            w.key("events"); w.int(f.events)
            w.key("rejected"); w.int(f.rejected)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        w.newline()
        return w.bytes
    }

    /// A human summary for the terminal.
    public func summary() -> String {
        var lines: [String] = []
        for f in inputs {
            lines.append("\(f.path) [\(f.format)]: \(f.rowsRead) rows → \(f.measurements) measurements, \(f.events) events"
                         + (f.rejected > 0 ? ", \(f.rejected) rejected" : ""))
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
        if let error { tail += "\nerror: \(error)" }
        lines.append(tail)
        return lines.joined(separator: "\n")
    }
}
