/// Remembers what the last few distinct byte strings turned into, so a value that repeats on every
/// element (a type, a source name, a unit) costs a length check and a memcmp, never a String.
struct ByteCache<Value> {
    private var keys: [[UInt8]] = []
    private var values: [Value] = []
    private var last = 0
    private var next = 0
    let capacity: Int

    init(capacity: Int = 16) { self.capacity = capacity }

    mutating func value(_ p: UnsafePointer<UInt8>, _ n: Int, make: (String) -> Value) -> Value {
        if last < keys.count, Self.equal(keys[last], p, n) { return values[last] }
        for i in 0..<keys.count where Self.equal(keys[i], p, n) {
            last = i
            return values[i]
        }
        let key = Array(UnsafeBufferPointer(start: p, count: n))
        let v = make(Attributes.text(p, n))
        if keys.count < capacity {
            keys.append(key)
            values.append(v)
            last = keys.count - 1
        } else {
            keys[next] = key
            values[next] = v
            last = next
            next = (next + 1) % capacity
        }
        return v
    }

    @inline(__always)
    private static func equal(_ key: [UInt8], _ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        key.count == n && key.withUnsafeBufferPointer { memcmp($0.baseAddress!, p, n) == 0 }
    }
}

#if canImport(Glibc)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#elseif canImport(Darwin)
import Darwin
#endif
