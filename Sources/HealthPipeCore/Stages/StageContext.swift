import Synchronization

/// What a running stage can see and do besides passing batches: apply its error policy to a bad
/// row, register the files it reads, report progress, notice a stop request.
/// Owned by the stage's thread while it runs; the engine reads the counters after joining it.
public final class StageContext: @unchecked Sendable {
    public let name: String
    public let type: String
    public let policy: ErrorPolicy
    public let quarantine: QuarantineWriter
    public let progress: ProgressMeter
    /// Printed warnings (e.g. a wrong separator guess) end up in the run report.
    public private(set) var warnings: [String] = []

    public internal(set) var recordsIn: Int64 = 0
    public internal(set) var recordsOut: Int64 = 0
    public private(set) var quarantined: Int64 = 0
    public private(set) var skipped: Int64 = 0
    public internal(set) var seconds: Double = 0
    public private(set) var inputs: [InputFileInfo] = []
    /// The first few rejections, for the run summary printed to the terminal.
    public private(set) var sampleErrors: [RowError] = []

    public init(name: String, type: String, policy: ErrorPolicy, quarantine: QuarantineWriter, progress: ProgressMeter) {
        self.name = name
        self.type = type
        self.policy = policy
        self.quarantine = quarantine
        self.progress = progress
    }

    /// True once the user pressed Ctrl-C or sent SIGTERM: finish the current batch and return.
    public var shouldStop: Bool { StopRequest.isRequested }

    /// Applies the stage's error policy to a bad row: throws under `fail`, counts under `skip`,
    /// writes it to the dead-letter file under `quarantine`.
    public func reject(_ error: RowError) throws {
        if sampleErrors.count < 5 { sampleErrors.append(error) }
        switch policy {
        case .fail: throw StageFailure(stage: name, underlying: error.description)
        case .skip: skipped += 1
        case .quarantine:
            try quarantine.write(stage: name, error: error)
            quarantined += 1
        }
    }

    public func warn(_ message: String) { warnings.append(message) }

    /// Registers a file this stage reads, or fills in the one the engine registered under the same
    /// path (its declared input); returns its index for `updateInput`.
    @discardableResult
    public func registerInput(_ info: InputFileInfo) -> Int {
        if let i = inputs.firstIndex(where: { $0.path == info.path }) {
            inputs[i].format = info.format
            if info.size > 0 { inputs[i].size = info.size }
            if !info.hash.isEmpty { inputs[i].hash = info.hash }
            return i
        }
        inputs.append(info)
        return inputs.count - 1
    }

    public func updateInput(_ index: Int, _ update: (inout InputFileInfo) -> Void) { update(&inputs[index]) }

    /// A file's counts when its read ends (called from a `defer`, so a stop or a failure still says
    /// what was read): rows (or documents, elements), the records made from them, the rejected ones, the content hash.
    public func finishInput(_ index: Int, rows: Int64, measurements: Int64, events: Int64, rejected: Int64, hash: String) {
        updateInput(index) {
            $0.rowsRead = rows
            $0.measurements = measurements
            $0.events = events
            $0.rejected = rejected
            $0.hash = hash
        }
    }

    /// Every data row of a file accounted for (`RowTypeCount`): stored, skipped, and per type; rows of a
    /// type the source does not know are warned about once per type (quarantined, skipped under
    /// `on_error: skip`, or stored by a source that reads them by their cells) and make the exit status 3.
    public func finishRows(_ index: Int, stored: Int64, skipped: Int64, types: [RowTypeCount]) {
        updateInput(index) {
            $0.stored = stored
            $0.skipped = skipped
            $0.rowTypes = types
            $0.accounted = true
        }
        let path = inputs[index].path, format = inputs[index].format
        for t in types where !t.known {
            // Rows the run's options left out (an Apple export's type filter) are skipped, not quarantined.
            let skipped = t.skipped > 0 ? ", \(t.skipped) skipped" : ""
            let fate = t.stored == 0 && t.skipped == 0 ? "quarantined"
                : t.stored == 0 ? "\(t.quarantined) quarantined\(skipped)"
                : "\(t.stored) stored by their cells, \(t.quarantined) quarantined\(skipped)"
            warn("\(path): \(t.rows) row\(t.rows == 1 ? "" : "s") of type '\(EchoText.cap(t.type))', which the \(format) format "
                 + "neither maps nor lists as not data (\(fate))")
        }
    }

    /// A file's rows as its `RowTally` counted them.
    public func finishRows(_ index: Int, _ tally: RowTally) {
        finishRows(index, stored: tally.totalStored, skipped: tally.totalSkipped, types: tally.counts)
    }

    /// For a source whose files accounted for every data row: the rows read (stored + rejected +
    /// skipped) and those skipped as not data; the run summary's `in` and `bad` for the stage, so
    /// its line adds up (`in` − `bad` = rows stored). nil for other stages.
    public var accountedRows: (read: Int64, skipped: Int64)? {
        let files = inputs.filter(\.accounted)
        guard !files.isEmpty else { return nil }
        return files.reduce((0, 0)) { ($0.0 + $1.stored + $1.rejected + $1.skipped, $0.1 + $1.skipped) }
    }

    /// Records `RecordGate` refused after the source counted them, by file: the input's counts in the
    /// run report (and the imports table) say what landed, and the gate's refusals count as rejected.
    private var gated: [String: (measurements: Int64, events: Int64, other: Int64)] = [:]

    func noteGated(file: String, measurements: Int64 = 0, events: Int64 = 0, other: Int64 = 0) {
        let g = gated[file] ?? (0, 0, 0)
        gated[file] = (g.measurements + measurements, g.events + events, g.other + other)
    }

    /// The inputs with the gate's refusals moved from what landed to what was rejected.
    public var inputsAfterGate: [InputFileInfo] {
        guard !gated.isEmpty else { return inputs }
        return inputs.map { info in
            guard let g = gated[info.path] else { return info }
            var out = info
            out.measurements = max(0, out.measurements - g.measurements)
            out.events = max(0, out.events - g.events)
            out.rejected += g.measurements + g.events + g.other
            // A source that accounted for its rows counted these as stored: they are quarantined now, so
            // the file's line still adds up (a refused record is taken as its row; the type lines say
            // what the source did).
            if out.accounted { out.stored = max(0, out.stored - (g.measurements + g.events + g.other)) }
            return out
        }
    }
}

/// Bytes read of bytes expected, summed over all sources; drawn by the progress bar.
public final class ProgressMeter: Sendable {
    private let done = Atomic<Int64>(0)
    private let total = Atomic<Int64>(0)
    private let recordCount = Atomic<Int64>(0)
    public init() {}
    public func addRecords(_ n: Int64) { recordCount.add(n, ordering: .relaxed) }
    public var records: Int64 { recordCount.load(ordering: .relaxed) }
    public func addExpected(_ n: Int64) { total.add(n, ordering: .relaxed) }
    public func advance(_ n: Int64) { done.add(n, ordering: .relaxed) }
    public var fraction: (done: Int64, total: Int64) { (done.load(ordering: .relaxed), total.load(ordering: .relaxed)) }
}
