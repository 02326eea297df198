import HealthPipeCore

/// Where each Clarity column is, found by header name (English or Spanish), so the 12- and
/// 14-column layouts, localized headers and a mangled first cell all work.
struct ClarityColumns {
    var timestamp = 1, eventType = 2, subtype = 3, deviceInfo = 5, sourceDevice = 6
    var glucose = 7, insulin = 8, carbs = 9, duration = 10
    /// `Transmitter ID` (14-column layout only).
    var transmitter: Int? = nil
    var glucoseUnit = GlucoseUnit.mgdl
    /// Cells in the header row.
    var count = 0

    /// Nil when the header is not a Clarity header.
    init?(header: [String]) {
        let cells = header.map(HeaderText.normalize)
        count = cells.count
        func find(_ needles: [String]) -> Int? {
            cells.firstIndex { cell in needles.contains { cell.hasPrefix($0) } }
        }
        guard let ts = find(["timestamp (", "marca temporal"]), let type = find(["event type", "tipo de evento"]) else { return nil }
        timestamp = ts
        eventType = type
        subtype = find(["event subtype", "subtipo de evento"]) ?? type + 1
        deviceInfo = find(["device info", "información del dispositivo", "informacion del dispositivo"]) ?? 5
        sourceDevice = find(["source device id", "id. del dispositivo de origen", "id del dispositivo de origen"]) ?? 6
        guard let g = find(["glucose value", "nivel de glucosa"]) else { return nil }
        glucose = g
        if cells[g].contains("mmol") { glucoseUnit = .mmol }
        insulin = find(["insulin value", "valor de insulina"]) ?? 8
        carbs = find(["carb value", "valor de carbohidratos"]) ?? 9
        duration = find(["duration", "duración", "duracion"]) ?? 10
        transmitter = find(["transmitter id", "id. del transmisor", "id del transmisor"])
    }

    /// Event types of Clarity's untimed metadata rows (English and Spanish exports).
    static func isMetadataType(_ type: UnsafeRawBufferPointer) -> Bool {
        for name in metadataTypes where ByteText.equalsIgnoringCase(type, name) { return true }
        return false
    }
    static let metadataTypes = ["FirstName", "LastName", "PatientIdentifier", "DateOfBirth", "Device", "Alert",
                                "Nombre", "Apellido", "Identificador del paciente", "Fecha de nacimiento", "Dispositivo", "Alerta"]

    /// Content detection: the first line names Clarity's timestamp and event type columns.
    static func looksLikeClarity(_ sniff: FileSniff) -> Bool {
        guard let first = sniff.lines(3).first else { return false }
        let line = first.lowercased()
        return (line.contains("timestamp (yyyy-mm-ddthh:mm:ss)") || line.contains("marca temporal (aaaa-mm-ddthh:mm:ss)"))
            && (line.contains("event type") || line.contains("tipo de evento"))
    }
}
