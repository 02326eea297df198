import HealthPipeCore

/// Where each LibreView column is: found by header words in any language of `LibreViewVocabulary`,
/// or, for a language the table does not know, by position in LibreView's fixed column order
/// (`LibreViewStructure`). Glucose columns carry their own unit.
struct LibreViewColumns {
    typealias Glucose = GlucoseColumn

    /// How many rows the header may be preceded by (real files have a 1- or 2-line preamble).
    static let headerSearchRows = 10

    var count: Int
    var device: Int?
    var timestamp: Int
    var recordType: Int
    var historic: Glucose?
    var scan: Glucose?
    var strip: Glucose?
    var rapid: Int?
    var rapidText: Int?
    var longActing: Int?
    var longText: Int?
    var foodText: Int?
    var carbsGrams: Int?
    var carbsServings: Int?
    var notes: Int?
    var mealInsulin: Int?
    var correctionInsulin: Int?
    var userChangeInsulin: Int?
    var previousTime: Int?
    var updatedTime: Int?
    var ketones: [Int] = []
    /// Every column that holds a reading or an entry (not device, serial, timestamp, type): a row
    /// with all of them empty carries nothing.
    var valueColumns: [Int] = []

    /// By header words; nil unless the row names both a timestamp and a record type column.
    init?(header: [String]) {
        // No LibreView layout is wider than 21 columns (a few trailing empty cells aside): a wide table
        // is something else, and not worth folding every cell of.
        guard header.count <= 40 else { return nil }
        let roles = header.map { LibreViewVocabulary.roles[LibreViewVocabulary.stem($0)] }
        guard roles.contains(.timestamp), roles.contains(.recordType) else { return nil }
        self.init(roles: roles, header: header, unitless: .mgdl)
    }

    /// Column `i` holds `roles[i]` (nil: a column this adapter does not read). A glucose column's unit
    /// is in its header (`mmol`, else `mg`); `unitless` is for a header whose words name no unit.
    init(roles: [LibreViewRole?], header: [String], unitless: GlucoseUnit) {
        func first(_ role: LibreViewRole) -> Int? { roles.firstIndex { $0 == role } }
        func glucose(_ role: LibreViewRole) -> Glucose? {
            first(role).map { i in
                let text = header[i].lowercased()
                return Glucose(index: i, unit: text.contains("mmol") ? .mmol : text.contains("mg") ? .mgdl : unitless)
            }
        }
        count = roles.count
        timestamp = first(.timestamp) ?? 0
        recordType = first(.recordType) ?? 0
        device = first(.device)
        historic = glucose(.historic)
        scan = glucose(.scan)
        strip = glucose(.strip)
        rapid = first(.rapid)
        rapidText = first(.rapidText)
        longActing = first(.long)
        longText = first(.longText)
        foodText = first(.foodText)
        carbsGrams = first(.carbsGrams)
        carbsServings = first(.carbsServings)
        notes = first(.notes)
        mealInsulin = first(.mealInsulin)
        correctionInsulin = first(.correctionInsulin)
        userChangeInsulin = first(.userChangeInsulin)
        previousTime = first(.previousTime)
        updatedTime = first(.updatedTime)
        ketones = roles.indices.filter { roles[$0] == .ketone }
        valueColumns = roles.indices.filter { !(roles[$0]?.isIdentity ?? false) }
    }

    /// Content detection score: a LibreView header in the first lines (by its words, or by structure
    /// for a language the vocabulary lacks), or failing that a known preamble.
    static func detectScore(_ sniff: FileSniff) -> Int {
        if let found = LibreViewHeader.find(sniff) { return found.byStructure ? 90 : 95 }
        guard let first = sniff.lines(1).first else { return 0 }
        let start = LibreViewVocabulary.fold(String(first.prefix(80)))
        return LibreViewVocabulary.preambles.contains { start.hasPrefix($0) } ? 80 : 0
    }
}
