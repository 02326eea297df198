import HealthPipeCore

/// Collects records into batches of a fixed size and hands each full batch on.
struct BatchBuilder {
    private(set) var batch = RecordBatch()
    let limit: Int
    private(set) var measurements: Int64 = 0
    private(set) var events: Int64 = 0

    init(limit: Int = 4096) {
        self.limit = limit
        batch.reserve(limit)
    }

    mutating func add(_ m: Measurement, _ emit: (RecordBatch) throws -> Void) throws {
        batch.measurements.append(m)
        measurements += 1
        if batch.count >= limit { try flush(emit) }
    }

    mutating func add(_ e: Event, _ emit: (RecordBatch) throws -> Void) throws {
        batch.events.append(e)
        events += 1
        if batch.count >= limit { try flush(emit) }
    }

    mutating func flush(_ emit: (RecordBatch) throws -> Void) throws {
        guard !batch.isEmpty else { return }
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
