/// A reading's trend `direction` as watch faces and the `direction` property show it
/// (cgm-remote-monitor `lib/server/pebble.js`, `lib/plugins/direction.js`).
enum NightscoutDirection {
    /// Pebble's `trend` number; 8 (NOT COMPUTABLE) for a direction it does not know or none.
    static func trend(_ direction: String?) -> Int {
        switch direction {
        case "NONE": return 0
        case "DoubleUp": return 1
        case "SingleUp": return 2
        case "FortyFiveUp": return 3
        case "Flat": return 4
        case "FortyFiveDown": return 5
        case "SingleDown": return 6
        case "DoubleDown": return 7
        case "RATE OUT OF RANGE": return 9
        default: return 8
        }
    }

    /// The arrow Nightscout draws; `-` for one it does not know or none.
    static func label(_ direction: String?) -> String {
        switch direction {
        case "NONE": return "⇼"
        case "TripleUp": return "⤊"
        case "DoubleUp": return "⇈"
        case "SingleUp": return "↑"
        case "FortyFiveUp": return "↗"
        case "Flat": return "→"
        case "FortyFiveDown": return "↘"
        case "SingleDown": return "↓"
        case "DoubleDown": return "⇊"
        case "TripleDown": return "⤋"
        case "RATE OUT OF RANGE": return "⇕"
        default: return "-"
        }
    }

    /// The arrow as an HTML entity (`&#8594;`).
    static func entity(_ direction: String?) -> String {
        "&#\(label(direction).unicodeScalars.first!.value);"
    }
}
