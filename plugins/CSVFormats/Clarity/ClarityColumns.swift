import HealthPipeCore

/// Where each Clarity column is, found once per file from the header: by the words of
/// `ClarityVocabulary` (any language), else by structure, which needs no language at all —
/// the timestamp cell names its pattern (`…Thh:mm:ss`), the glucose cell its unit (`(mg/dL)`,
/// `(mmol/L)`), and the other columns keep Clarity's fixed order around them.
struct ClarityColumns {
    var timestamp = 1, eventType = 2, subtype = 3, deviceInfo = 5, sourceDevice = 6
    var glucose = 7, insulin = 8, carbs = 9, duration = 10
    /// `Transmitter Time` and `Transmitter ID` (14-column layout only).
    var transmitterTime: Int? = nil, transmitter: Int? = nil
    var glucoseUnit = GlucoseUnit.mgdl
    /// Cells in the header row.
    var count = 0

    /// Nil when the header is not a Clarity header.
    init?(header: [String]) {
        let cells = header.map(HeaderText.normalize)
        count = cells.count
        func find(_ role: ClarityRole) -> Int? {
            let words = ClarityVocabulary.headerWords[role] ?? []
            return cells.firstIndex { cell in words.contains { cell.hasPrefix($0) } }
        }
        // Structure: the timestamp cell spells out ISO 8601 with a `T` in every language
        // (YYYY-MM-DDThh:mm:ss, AAAA-MM-JJThh:mm:ss, JJJJ-MM-TTThh:mm:ss…).
        guard let ts = find(.timestamp) ?? cells.firstIndex(where: { $0.contains("thh:mm:ss") }) else { return nil }
        // The glucose column is the first whose unit is a glucose unit (the rate column says `/min`).
        guard let g = find(.glucose) ?? cells.firstIndex(where: { $0.hasSuffix("(mg/dl)") || $0.hasSuffix("(mmol/l)") }),
              g > ts else { return nil }
        timestamp = ts
        glucose = g
        if cells[g].contains("mmol") { glucoseUnit = .mmol }
        // Other columns: by name, else at their place in Clarity's order relative to these two.
        func place(_ role: ClarityRole, relativeTo anchor: Int, of anchorRole: ClarityRole) -> Int {
            find(role) ?? anchor + role.rawValue - anchorRole.rawValue
        }
        eventType = place(.eventType, relativeTo: ts, of: .timestamp)
        // Without its name, the event type must sit where Clarity puts it, or this is not Clarity's layout.
        if find(.eventType) == nil, g - ts != ClarityRole.glucose.rawValue - ClarityRole.timestamp.rawValue { return nil }
        subtype = place(.subtype, relativeTo: ts, of: .timestamp)
        deviceInfo = place(.deviceInfo, relativeTo: ts, of: .timestamp)
        sourceDevice = place(.sourceDevice, relativeTo: ts, of: .timestamp)
        insulin = place(.insulin, relativeTo: g, of: .glucose)
        carbs = place(.carbs, relativeTo: g, of: .glucose)
        duration = find(.duration) ?? cells.indices.first { $0 != ts && cells[$0].contains("(hh:mm:ss)") }
            ?? g + ClarityRole.duration.rawValue - ClarityRole.glucose.rawValue
        transmitterTime = find(.transmitterTime)
        transmitter = find(.transmitterID)
        let lastRole = ClarityRole.transmitterID.rawValue - ClarityRole.glucose.rawValue
        if transmitter == nil, count == g + lastRole + 1 {
            transmitterTime = transmitterTime ?? g + lastRole - 1
            transmitter = g + lastRole
        }
    }

    /// True when `type` names one of the untimed metadata rows (patient, device, alert settings).
    static func isMetadataKind(_ kind: ClarityEventKind) -> Bool {
        kind == .metadata || kind == .device || kind == .alert
    }

    /// Content detection: the first line (after the BOM) is a Clarity header in any language or by structure.
    static func looksLikeClarity(_ sniff: FileSniff) -> Bool {
        guard let first = sniff.lines(3).first else { return false }
        let cells = SniffCells.split(first, delimiter: HeaderText.sniffDelimiter(first))
        return looksLikeHeader(cells)
    }

    /// A header is Clarity's when its columns resolve and it has Clarity's width (11 to 14 cells).
    static func looksLikeHeader(_ cells: [String]) -> Bool {
        guard (11...14).contains(cells.count), let c = ClarityColumns(header: cells) else { return false }
        return c.eventType < cells.count && c.glucose < cells.count
    }
}
