/// Remembers what a few byte strings map to (a device name, an `enteredBy`, a direction), so a
/// value repeated on every document costs a memcmp, not a String and a lock.
struct BytesCache<Value> {
    private var keys: [[UInt8]] = []
    private var values: [Value] = []
    private var next = 0
    let capacity: Int

    init(capacity: Int = 16) { self.capacity = capacity }

    mutating func value(_ bytes: UnsafeRawBufferPointer, _ make: (String) -> Value) -> Value {
        for i in 0..<keys.count where keys[i].count == bytes.count {
            if keys[i].withUnsafeBytes({ $0.elementsEqual(bytes) }) { return values[i] }
        }
        let v = make(String(decoding: bytes, as: UTF8.self))
        if keys.count < capacity {
            keys.append(Array(bytes))
            values.append(v)
        } else {
            keys[next] = Array(bytes)
            values[next] = v
            next = (next + 1) % capacity
        }
        return v
    }
}
