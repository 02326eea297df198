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
    /// The timestamp column was found by its name (in some language), not by position.
    var namedTimestamp = false

    /// Nil when the header is not a Clarity header.
    init?(header: [String]) {
        let cells = header.map(HeaderText.normalize)
        count = cells.count
        func find(_ role: ClarityRole) -> Int? {
            let words = ClarityVocabulary.headerWords[role] ?? []
            return cells.firstIndex { cell in words.contains { cell.hasPrefix($0) } }
        }
        // Structure: the glucose column is the first whose unit is a glucose unit (the rate column says `/min`).
        let unitCell = cells.firstIndex { $0.hasSuffix("(mg/dl)") || $0.hasSuffix("(mmol/l)") }
        let byPosition = ClarityRole.glucose.rawValue - ClarityRole.timestamp.rawValue
        // A renamed timestamp cell (`date_time`) in Clarity's 12–14 columns: the timestamp keeps its place
        // before the glucose unit; each row's timestamp is still checked.
        let placed = unitCell.flatMap { g in (12...14).contains(cells.count) && g == ClarityRole.glucose.rawValue ? g - byPosition : nil }
        // The timestamp cell spells out ISO 8601 with a `T` in every language
        // (YYYY-MM-DDThh:mm:ss, AAAA-MM-JJThh:mm:ss, JJJJ-MM-TTThh:mm:ss…).
        guard let ts = find(.timestamp) ?? cells.firstIndex(where: { $0.contains("thh:mm:ss") }) ?? placed,
              let g = find(.glucose) ?? unitCell, g > ts else { return nil }
        timestamp = ts
        namedTimestamp = find(.timestamp) != nil
        glucose = g
        if cells[g].contains("mmol") { glucoseUnit = .mmol }
        // Other columns: by name, else at their place in Clarity's order relative to these two.
        func place(_ role: ClarityRole, relativeTo anchor: Int, of anchorRole: ClarityRole) -> Int {
            find(role) ?? anchor + role.rawValue - anchorRole.rawValue
        }
        eventType = place(.eventType, relativeTo: ts, of: .timestamp)
        // Without its name, the event type must sit where Clarity puts it, or this is not Clarity's layout.
        if find(.eventType) == nil, g - ts != byPosition { return nil }
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
        if count == g + lastRole + 1 {  // the 14-column layout
            transmitterTime = transmitterTime ?? g + lastRole - 1
            transmitter = transmitter ?? g + lastRole
        }
    }

    /// True when `type` names one of the untimed metadata rows (patient, device, alert settings).
    static func isMetadataKind(_ kind: ClarityEventKind) -> Bool {
        kind == .metadata || kind == .device || kind == .alert
    }

    /// Content detection: the first line (after the BOM) is a Clarity header in any language or by structure.
    /// When the header names no timestamp (renamed by its owner), the data must show Clarity's rows:
    /// an integer Index, an ISO timestamp, an event code.
    static func looksLikeClarity(_ sniff: FileSniff) -> Bool {
        let lines = sniff.lines(40)
        guard let first = lines.first else { return false }
        let delimiter = HeaderText.sniffDelimiter(first)
        let cells = SniffCells.split(first, delimiter: delimiter)
        guard looksLikeHeader(cells), let c = ClarityColumns(header: cells) else { return false }
        if cells[c.timestamp].lowercased().contains("thh:mm:ss") || c.namedTimestamp { return true }
        return lines.dropFirst().contains { line in
            let row = SniffCells.split(line, delimiter: delimiter)
            guard row.count > c.eventType, Int(row[0]) != nil, !row[c.eventType].isEmpty else { return false }
            return isISOTimestamp(row[c.timestamp])
        }
    }

    /// Clarity's width (11 to 14 cells) and columns that resolve within it.
    static func looksLikeHeader(_ cells: [String]) -> Bool {
        guard (11...14).contains(cells.count), let c = ClarityColumns(header: cells) else { return false }
        return c.eventType < cells.count && c.glucose < cells.count
    }

    /// `YYYY-MM-DDThh:mm:ss`, the form of every Clarity timestamp.
    static func isISOTimestamp(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count == 19 else { return false }
        for (i, c) in b.enumerated() {
            switch i {
            case 4, 7: if c != UInt8(ascii: "-") { return false }
            case 10: if c != UInt8(ascii: "T") { return false }
            case 13, 16: if c != UInt8(ascii: ":") { return false }
            default: if c &- 0x30 > 9 { return false }
            }
        }
        return true
    }
}
