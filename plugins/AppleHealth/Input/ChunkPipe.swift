import Foundation

/// A bounded hand-over of byte chunks from a reader thread to the parser thread, so reading,
/// inflating, CRC-checking and hashing the input overlap with parsing instead of adding to it.
final class ChunkPipe: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [[UInt8]] = []
    /// Buffers handed back by the parser, reused so the same few allocations carry every chunk.
    private var spare: [[UInt8]] = []
    private var finished = false
    private var cancelled = false
    private var failure: Error?
    let capacity: Int

    init(capacity: Int = 3) { self.capacity = capacity }

    /// Reader side: copies `bytes` into a spare buffer and queues it; false once the consumer
    /// cancelled (stop reading).
    func put(_ bytes: UnsafeRawBufferPointer) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        var buffer = spare.popLast() ?? []
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: bytes)
        chunks.append(buffer)
        condition.broadcast()
        return true
    }

    /// Parser side: gives a consumed buffer back for reuse.
    func recycle(_ buffer: [UInt8]) {
        condition.lock()
        if spare.count < 2 { spare.append(buffer) }
        condition.unlock()
    }

    /// Reader side: no more chunks (with the error that ended reading, if any).
    func finish(_ error: Error?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// Parser side: the next chunk, or nil at the end (rethrowing the reader's error).
    func take() throws -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !finished { condition.wait() }
        if !chunks.isEmpty {
            let c = chunks.removeFirst()
            condition.broadcast()
            return c
        }
        if let failure { throw failure }
        return nil
    }

    /// Parser side: stop the reader and wait until it has let go.
    func cancel() {
        condition.lock()
        cancelled = true
        chunks.removeAll()
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
