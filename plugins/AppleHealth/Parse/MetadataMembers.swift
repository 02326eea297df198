#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthPipeCore

/// A record's MetadataEntry children as JSON members (`"key":"value",…`), written straight from
/// the attribute bytes as they stream past: no String per entry on the parser thread (the floor
/// pays for none); `MetadataCache` turns the members into one shared text.
struct MetadataMembers {
    private(set) var bytes: [UInt8] = []

    var isEmpty: Bool { bytes.isEmpty }

    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// A member whose key is already encoded (`"key":`) and whose value is attribute bytes.
    mutating func append(key: [UInt8], value p: UnsafePointer<UInt8>, _ n: Int) {
        if !bytes.isEmpty { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: key)
        Self.quoteAttribute(p, n, into: &bytes)
    }

    /// A member whose key and value are both already encoded (a derived `"meal_time":"preprandial"`).
    mutating func append(key: [UInt8], encodedValue: [UInt8]) {
        if !bytes.isEmpty { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: key)
        bytes.append(contentsOf: encodedValue)
    }

    /// Attribute text as a JSON string, with libxml2's `&#38;` read as `&` (as `Attributes.text` does).
    static func quoteAttribute(_ p: UnsafePointer<UInt8>, _ n: Int, into bytes: inout [UInt8]) {
        guard memchr(p, 0x26, n) != nil else { return JSONWriter.quote(UnsafeBufferPointer(start: p, count: n), into: &bytes) }
        let decoded = Array(Attributes.text(p, n).utf8)
        decoded.withUnsafeBufferPointer { JSONWriter.quote($0, into: &bytes) }
    }
}

/// A MetadataEntry key: its JSON (`"key":`, written once) and what the handler does with its value.
final class MetadataKey {
    enum Role { case plain, timeZone, insulinReason, userEntered, foodType }
    let encoded: [UInt8]
    let role: Role
    /// The member HealthPipe adds after this entry, if any: its encoded key, and the encoded names
    /// of the one-digit codes it knows (HKBloodGlucoseMealTime 1 → "preprandial"); other values are
    /// kept as written.
    let derivedKey: [UInt8]?
    let derivedNames: [[UInt8]?]

    init(_ text: String) {
        encoded = Self.encode(text) + [UInt8(ascii: ":")]
        var derived: (key: String, names: [String?])?
        switch text {
        case "HKTimeZone": role = .timeZone
        case "HKInsulinDeliveryReason": role = .insulinReason
        case "HKWasUserEntered": role = .userEntered
        case "HKFoodType": role = .foodType
        case "HKBloodGlucoseMealTime":
            role = .plain
            derived = ("meal_time", [nil, "preprandial", "postprandial"])
        case "HKMetadataKeyHeartRateMotionContext":
            role = .plain
            derived = ("motion_context", ["unset", "sedentary", "active"])
        default: role = .plain
        }
        derivedKey = derived.map { Self.encode($0.key) + [UInt8(ascii: ":")] }
        derivedNames = (derived?.names ?? []).map { $0.map(Self.encode) }
    }

    /// The encoded name of a one-digit code this key's derived member knows.
    func derivedName(_ p: UnsafePointer<UInt8>, _ n: Int) -> [UInt8]? {
        guard n == 1 else { return nil }
        let digit = Int(p[0]) &- 0x30
        return digit >= 0 && digit < derivedNames.count ? derivedNames[digit] : nil
    }

    private static func encode(_ text: String) -> [UInt8] {
        var e: [UInt8] = []
        var t = text
        t.withUTF8 { JSONWriter.quote($0, into: &e) }
        return e
    }
}

/// The last few metadata texts by their members: most records repeat one of a handful (a heart
/// rate's motion context), so they share one String and no JSON is made for them.
struct MetadataCache {
    private var members: [[UInt8]] = []
    private var texts: [String] = []
    private var last = 0
    private var next = 0
    static let capacity = 8

    mutating func text(for wanted: [UInt8]) -> String {
        if last < members.count, Self.equal(members[last], wanted) { return texts[last] }
        for i in 0..<members.count where Self.equal(members[i], wanted) {
            last = i
            return texts[i]
        }
        var object: [UInt8] = [UInt8(ascii: "{")]
        object.reserveCapacity(wanted.count + 2)
        object.append(contentsOf: wanted)
        object.append(UInt8(ascii: "}"))
        let text = String(decoding: object, as: UTF8.self)
        // A copy: sharing the draft's buffer would make its next record reallocate it.
        let kept = wanted.withUnsafeBufferPointer { Array($0) }
        if members.count < Self.capacity {
            members.append(kept)
            texts.append(text)
            last = members.count - 1
        } else {
            members[next] = kept
            texts[next] = text
            last = next
            next = (next + 1) % Self.capacity
        }
        return text
    }

    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && (a.isEmpty || a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0 } })
    }
}
