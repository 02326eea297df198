import CLibXML2
import HealthPipeCore
import Foundation

/// libxml2's SAX2 attribute array viewed by index: 5 pointers per attribute (local name, prefix,
/// URI, value start, value end). Names are compared as bytes; values are never copied unless kept.
struct Attributes {
    let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    @inline(__always) func name(_ i: Int) -> UnsafePointer<UInt8> { base![5 * i]! }
    @inline(__always) func value(_ i: Int) -> UnsafePointer<UInt8> { base![5 * i + 3]! }
    @inline(__always) func length(_ i: Int) -> Int { base![5 * i + 4]! - base![5 * i + 3]! }
    func string(_ i: Int) -> String { Attributes.text(value(i), length(i)) }

    /// Attribute text. Without entity substitution libxml2 hands `&amp;` over as `&#38;` (so the
    /// value could be re-serialized); that one reference is decoded here.
    static func text(_ p: UnsafePointer<UInt8>, _ n: Int) -> String {
        let s = String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
        guard memchr(p, 0x26, n) != nil else { return s }
        return s.replacingOccurrences(of: "&#38;", with: "&")
    }

    /// The value as a number when the whole value is one (Core's `DecimalText`).
    @inline(__always) func number(_ i: Int) -> Double? {
        DecimalText.double(UnsafeRawBufferPointer(start: value(i), count: length(i)))
    }

    func date(_ i: Int) -> HealthDate.Parsed? { HealthDate.parse(value(i), count: length(i)) }
}

/// Compares a NUL-terminated libxml2 name with a literal.
@inline(__always)
func named(_ p: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
    memcmp(p, literal.utf8Start, literal.utf8CodeUnitCount + 1) == 0
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
