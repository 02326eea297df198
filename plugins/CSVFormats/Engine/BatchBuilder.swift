import HealthPipeCore

/// Collects records into batches of a fixed size and hands each full batch on. Every record is
/// checked against the plausibility table (`Plausibility`) as it is added, and the records of one
/// row are added as a unit: a row rejected half-way (its second value implausible) is rolled back,
/// so a rejected row never lands in part. Full batches are handed on between rows only.
public struct BatchBuilder {
    private(set) var batch = RecordBatch()
    let limit: Int
    private(set) var measurements: Int64 = 0
    private(set) var events: Int64 = 0
    private var rowStart = (measurements: 0, events: 0)
    private var inRow = false
    private var lastMetric = Symbol.empty
    private var lastRule: Plausibility.Rule?

    /// Records held: a builder adds only measurements and events (`RecordBatch.count` adds up every kind, per row).
    var held: Int { batch.measurements.count + batch.events.count }
    var isEmpty: Bool { held == 0 }

    public init(limit: Int = 4096) {
        self.limit = limit
        batch.reserve(limit)
    }

    public mutating func add(_ m: Measurement, _ emit: (RecordBatch) throws -> Void) throws {
        if m.metric != lastMetric {
            lastMetric = m.metric
            lastRule = Plausibility.rule(for: m.metric)
        }
        if let problem = lastRule.map({ $0.problem(m.value, unit: m.unit) })
            ?? (m.value.isFinite ? nil : "\(m.metric.text) value \(m.value) is not a number") {
            throw CSVFileRun.Reject(problem)
        }
        if m.end < m.start { throw CSVFileRun.Reject("\(m.metric.text) ends before it starts") }
        batch.measurements.append(m)
        measurements += 1
        if !inRow, held >= limit { try flush(emit) }
    }

    public mutating func add(_ e: Event, _ emit: (RecordBatch) throws -> Void) throws {
        if let problem = Plausibility.eventProblem(insulin: e.insulin, carbs: e.carbs) { throw CSVFileRun.Reject(problem) }
        if e.end < e.start { throw CSVFileRun.Reject("\(e.kind.rawValue) event ends before it starts") }
        batch.events.append(e)
        events += 1
        if !inRow, held >= limit { try flush(emit) }
    }

    /// The records added from here on belong to one row (see `rollbackRow`).
    mutating func beginRow() {
        rowStart = (batch.measurements.count, batch.events.count)
        inRow = true
    }

    /// The row is complete: hand the batch on if it is full.
    mutating func endRow(_ emit: (RecordBatch) throws -> Void) throws {
        inRow = false
        if held >= limit { try flush(emit) }
    }

    /// The row was rejected: drop what it added.
    mutating func rollbackRow() {
        inRow = false
        measurements -= Int64(batch.measurements.count - rowStart.measurements)
        events -= Int64(batch.events.count - rowStart.events)
        batch.measurements.removeSubrange(rowStart.measurements...)
        batch.events.removeSubrange(rowStart.events...)
    }

    mutating func flush(_ emit: (RecordBatch) throws -> Void) throws {
        guard !isEmpty else { return }
        let full = batch
        batch.removeAll()
        try emit(full)
    }
}

/// Interns byte strings from CSV fields, remembering the last few so repeated values (a device
/// name on every row) cost a memcmp, not a lock and an allocation.
struct ByteSymbolCache {
    private var keys: [[UInt8]] = []
    private var symbols: [Symbol] = []
    private var next = 0

    mutating func symbol(_ bytes: UnsafeRawBufferPointer) -> Symbol {
        for i in 0..<keys.count where keys[i].count == bytes.count {
            if keys[i].withUnsafeBytes({ $0.elementsEqual(bytes) }) { return symbols[i] }
        }
        let s = Symbol(String(decoding: bytes, as: UTF8.self))
        if keys.count < 8 {
            keys.append(Array(bytes))
            symbols.append(s)
        } else {
            keys[next] = Array(bytes)
            symbols[next] = s
            next = (next + 1) % 8
        }
        return s
    }
}
