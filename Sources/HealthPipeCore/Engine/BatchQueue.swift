import Foundation

/// A bounded multi-producer queue between stages. `push` blocks while it is full (backpressure:
/// a fast parser cannot run ahead of a slow writer and fill memory); `pop` returns nil once every
/// producer has finished and the queue is drained, or at once after `abort`.
final class BatchQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [RecordBatch] = []
    private var head = 0
    private let capacity: Int
    private var openProducers: Int
    private var aborted = false

    init(capacity: Int, producers: Int) {
        self.capacity = capacity
        self.openProducers = producers
    }

    /// False when the queue was aborted (the consumer has gone): the producer should stop.
    func push(_ batch: RecordBatch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity && !aborted { condition.wait() }
        if aborted { return false }
        items.append(batch)
        condition.broadcast()
        return true
    }

    func pop() -> RecordBatch? {
        condition.lock()
        defer { condition.unlock() }
        while items.count == head && openProducers > 0 && !aborted { condition.wait() }
        if aborted || items.count == head { return nil }
        let b = items[head]
        items[head] = RecordBatch()
        head += 1
        if head > 64 && head * 2 > items.count { items.removeFirst(head); head = 0 }
        condition.broadcast()
        return b
    }

    func producerFinished() {
        condition.lock()
        openProducers -= 1
        condition.broadcast()
        condition.unlock()
    }

    func abort() {
        condition.lock()
        aborted = true
        items.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }
}
