import Foundation
import Hummingbird

/// An upload's body: Nightscout takes one document or an array of them. Each document keeps its own
/// bytes (for the quarantine, exactly as sent) and its parsed value (for the answer).
struct NightscoutBody {
    var documents: [Any]
    /// The documents one per line (newlines inside a document are JSON whitespace, made spaces), so
    /// the importer's line `i + 1` is document `i`.
    var lines: [UInt8]

    /// A 415 for a body that is not JSON, a 400 for JSON that does not parse (with the parser's reason).
    /// A leading byte-order mark is no part of any document (`JSONBodyBytes`).
    init(_ bytes: [UInt8], contentType: String?) throws {
        let type = (contentType ?? "").lowercased()
        guard type.hasPrefix("application/json") || type.hasPrefix("text/json") || type.contains("+json") else {
            throw HTTPError(.unsupportedMediaType, message: "send the documents as JSON (Content-Type: application/json), got '\(contentType ?? "none")'")
        }
        // Counted before parsing: 300,000 `{}` fit in a megabyte and would cost the writer, the answer
        // and the quarantine hundreds of megabytes (docs/serve.md, "Security model").
        let json = JSONBodyBytes.text(bytes)
        let ranges = try Self.elementRanges(bytes, from: json.startIndex, limit: ServeLimits.maxDocuments)
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed]) } catch {
            throw HTTPError(.badRequest, message: "malformed JSON: \(Self.reason(error))")
        }
        if let array = parsed as? [Any] {
            // An array inside the array is no document, and the import would read it as a file's
            // array of its own (its objects stored, a "truncated" line after it): refused whole.
            if let i = array.firstIndex(where: { $0 is [Any] }) {
                throw HTTPError(.badRequest, message: "$[\(i)] is an array: send documents, or one array of documents. Nothing was stored")
            }
            documents = array
            guard let ranges, ranges.count == array.count else {
                throw HTTPError(.badRequest, message: "malformed JSON: the array's elements cannot be told apart")
            }
            lines = []
            lines.reserveCapacity(bytes.count + ranges.count)
            for r in ranges {
                lines += bytes[r].map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
                lines.append(0x0A)
            }
        } else if parsed is [String: Any] {
            documents = [parsed]
            lines = json.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 } + [0x0A]
        } else {
            throw HTTPError(.badRequest, message: "send a JSON object or an array of objects")
        }
    }

    /// The byte ranges of a top-level array's elements (strings and nesting honoured) in the JSON
    /// text that starts at `first`; nil when it is not an array (or not one that closes). More than
    /// `limit` elements: a 413.
    static func elementRanges(_ b: [UInt8], from first: Int = 0, limit: Int = .max) throws -> [Range<Int>]? {
        var i = first
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
        guard i < b.count, b[i] == UInt8(ascii: "[") else { return nil }
        var out: [Range<Int>] = []
        var depth = 0, inString = false, escaped = false, start: Int?
        for j in (i + 1)..<b.count {
            let c = b[j]
            if inString {
                if escaped { escaped = false } else if c == UInt8(ascii: "\\") { escaped = true } else if c == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch c {
            case UInt8(ascii: "\""): inString = true; if start == nil { start = j }
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1; if start == nil { start = j }
            case UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: "]") where depth > 0: depth -= 1
            case UInt8(ascii: ","), UInt8(ascii: "]"):
                guard depth == 0 else { continue }
                if let s = start {
                    guard out.count < limit else {
                        throw HTTPError(.contentTooLarge, message: "more than \(limit) documents in one request: send them in batches of at most \(limit)")
                    }
                    out.append(s..<Self.trimmedEnd(b, s, j))
                }
                start = nil
                if c == UInt8(ascii: "]") { return out }
            case 0x20, 0x0A, 0x0D, 0x09: break
            default: if start == nil { start = j }
            }
        }
        return nil
    }

    private static func trimmedEnd(_ b: [UInt8], _ start: Int, _ end: Int) -> Int {
        var e = end
        while e > start, b[e - 1] == 0x20 || b[e - 1] == 0x0A || b[e - 1] == 0x0D || b[e - 1] == 0x09 { e -= 1 }
        return e
    }

    private static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        return (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription
    }
}
