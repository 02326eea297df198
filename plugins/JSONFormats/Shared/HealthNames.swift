/// Names as the database spells them: `reservoirChange` → `reservoir_change`, `Site Change` → `site_change`.
enum HealthNames {
    static func snake(_ s: String) -> String {
        var out = ""
        var previousLower = false
        for ch in s {
            if ch.isUppercase, previousLower { out.append("_") }
            if ch.isLetter || ch.isNumber {
                out.append(contentsOf: ch.lowercased())
                previousLower = ch.isLowercase || ch.isNumber
            } else {
                if !out.isEmpty, out.last != "_" { out.append("_") }
                previousLower = false
            }
        }
        while out.last == "_" { out.removeLast() }
        return out
    }
}
