import HealthPipeCore

/// Summaries and metric sets go out in chunks as they are made, never all held at once.
struct DailyOutput {
    let emit: (RecordBatch) throws -> Void
    private var summaries: [DailySummary] = []
    private var sets: [MetricSet] = []
    static let chunk = 4096

    init(emit: @escaping (RecordBatch) throws -> Void) { self.emit = emit }

    mutating func add(_ s: DailySummary) throws {
        summaries.append(s)
        if summaries.count >= Self.chunk { try flush() }
    }

    mutating func add(_ s: MetricSet) throws {
        sets.append(s)
        if sets.count >= Self.chunk / 4 { try flush() }
    }

    mutating func flush() throws {
        guard !summaries.isEmpty || !sets.isEmpty else { return }
        try emit(RecordBatch(dailySummaries: summaries, metricSets: sets))
        summaries.removeAll(keepingCapacity: true)
        sets.removeAll(keepingCapacity: true)
    }
}
