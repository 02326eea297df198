/// Batches of a source's records, handed on when full (the store sources' shared batching).
public struct SourceBatches {
    public let size: Int
    public let context: StageContext
    public let emit: (RecordBatch) throws -> Void
    private var batch = RecordBatch()

    public init(size: Int, context: StageContext, emit: @escaping (RecordBatch) throws -> Void) {
        self.size = size
        self.context = context
        self.emit = emit
        batch.reserve(size)
    }

    public mutating func add(_ m: Measurement) throws {
        batch.measurements.append(m)
        if batch.measurements.count + batch.events.count >= size { try flush() }
    }

    public mutating func add(_ e: Event) throws {
        batch.events.append(e)
        if batch.measurements.count + batch.events.count >= size { try flush() }
    }

    public mutating func add(_ r: HealthReport) throws {
        batch.reports.append(r)
        if batch.reports.count >= size { try flush() }
    }

    public mutating func flush() throws {
        guard !batch.isEmpty else { return }
        context.progress.addRecords(Int64(batch.count))
        try emit(batch)
        batch = RecordBatch()
        batch.reserve(size)
    }
}
