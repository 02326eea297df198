#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Looks for ASCII words in bytes as bytes: `String.contains` on a 64 KB detection prefix walks
/// grapheme clusters and cost a detector ~20 million instructions; a byte search costs a few thousand.
public enum ByteSearch {
    public static func contains(_ haystack: some Collection<UInt8>, _ needle: StaticString) -> Bool {
        let found = haystack.withContiguousStorageIfAvailable { find(UnsafeRawBufferPointer($0), needle) }
        return found ?? Array(haystack).withUnsafeBytes { find($0, needle) }
    }

    /// Whether the bytes end with an ASCII word: a byte position from a byte walk may not be a
    /// Character offset (`\r\n` and invalid UTF-8 make fewer Characters than bytes).
    public static func endsWith(_ bytes: some BidirectionalCollection<UInt8>, _ suffix: StaticString) -> Bool {
        let n = suffix.utf8CodeUnitCount
        guard bytes.count >= n else { return false }
        return suffix.withUTF8Buffer { bytes.suffix(n).elementsEqual($0) }
    }

    /// `memchr` to each candidate first byte, `memcmp` for the rest (Glibc's module has no `memmem`).
    private static func find(_ haystack: UnsafeRawBufferPointer, _ needle: StaticString) -> Bool {
        let n = needle.utf8CodeUnitCount
        guard let base = haystack.baseAddress, n > 0, haystack.count >= n else { return false }
        let first = Int32(needle.utf8Start.pointee)
        var at = 0
        let lastStart = haystack.count - n
        while at <= lastStart, let hit = memchr(base + at, first, lastStart - at + 1) {
            if memcmp(hit, needle.utf8Start, n) == 0 { return true }
            at = UnsafeRawPointer(hit) - base + 1
        }
        return false
    }
}
