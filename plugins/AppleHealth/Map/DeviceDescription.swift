import HealthPipeCore

/// The `device` attribute: HealthKit's description of an HKDevice,
/// `<<HKDevice: 0x282e3a260>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone10,4, software:12.3>`.
/// Fields are `, key:value` pairs; values may hold commas (`iPhone10,4`), so a field starts only at
/// ", " followed by a word and a colon.
enum DeviceDescription {
    static func fields(_ text: String) -> [(key: String, value: String)] {
        var s = Substring(text)
        if s.hasPrefix("<<"), let close = s.range(of: ">") { s = s[close.upperBound...] }
        if s.hasSuffix(">") { s = s.dropLast() }
        let chars = Array(s)
        var starts: [Int] = []
        var i = 0
        while i + 1 < chars.count {
            if chars[i] == ",", chars[i + 1] == " " {
                var j = i + 2
                while j < chars.count, chars[j].isLetter || chars[j] == "_" { j += 1 }
                if j > i + 2, j < chars.count, chars[j] == ":" { starts.append(i + 2) }
            }
            i += 1
        }
        var out: [(String, String)] = []
        for (n, start) in starts.enumerated() {
            let end = n + 1 < starts.count ? starts[n + 1] - 2 : chars.count
            let field = String(chars[start..<end])
            guard let colon = field.firstIndex(of: ":") else { continue }
            out.append((String(field[..<colon]), String(field[field.index(after: colon)...])))
        }
        return out
    }
}
