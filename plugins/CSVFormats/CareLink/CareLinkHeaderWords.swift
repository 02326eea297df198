/// What a CareLink column means, whatever language the export was written in.
enum CareLinkRole: CaseIterable, Sendable {
    case index, date, time
    case bgReading, calibration, sensorGlucose, isig, basalRate
    case bolusType, bolusSelected, bolusDelivered, bolusDuration, bolusNumber, carbInput
    case eventMarker, alarm, suspend, rewind
    /// The older "Data Export File" logs each pump record's type and its values (`RATE=0.75, …`).
    case rawType, rawValues
}

/// Every header spelling of every column HealthPipe reads, per export language, in one table.
/// Spellings are lower-cased as `HeaderText.normalize` leaves them. A `prefix` spelling ends where
/// the unit in parentheses starts (`sensor glucose (` + `mg/dl)` or `mmol/l)`): the unit is read from
/// the header. Sources of the words: CareLink Personal/Pro exports (English, `,` and `;`), Guardian
/// Connect (English, `;`), the German "Datenexport-Datei" of CareLink Personal (header words as read
/// by users' R scripts: `BZ-Messwert (mg/dl)`, `Abgegebene Bolusmenge (IE)`, `BolusExpert: KH-Eingabe
/// (Gramm)` …), the newer German web export (`Bolusvolumen abgegeben`), Dutch (`Tijd`,
/// `BG-meetwaarde`), Danish (`Dato`, `Klokkeslæt`, `Sensorglukose (mmol/l)`) and Czech (`Čas`,
/// `Glukóza senzoru`).
enum CareLinkHeaderWords {
    struct Spellings: Sendable {
        var exact: [String] = []
        var prefix: [String] = []
    }

    static let table: [CareLinkRole: Spellings] = [
        .index: Spellings(exact: ["index", "índice", "indice"]),
        .date: Spellings(exact: ["date", "datum", "dato", "fecha", "data"]),
        .time: Spellings(exact: ["time", "zeit", "uhrzeit", "tijd", "klokkeslæt", "tid", "čas", "cas", "heure", "hora", "ora"]),
        .bgReading: Spellings(prefix: ["bg reading (", "bz-messwert (", "bg-meetwaarde (", "bs-måling (", "glykémie (",
                                       "glucemia (", "glycémie (", "bg-messwert ("]),
        .calibration: Spellings(prefix: ["sensor calibration bg (", "sensorkalibrierung bz (", "bz-kalibrierung (",
                                         "kalibratie-bg sensor (", "sensorkalibrering bs ("]),
        .sensorGlucose: Spellings(prefix: ["sensor glucose (", "sensorglukose (", "sensorglucose (", "glukóza senzoru (",
                                           "glukoza senzoru (", "glucosa del sensor (", "glucose du capteur (",
                                           "glucosio sensore ("]),
        .isig: Spellings(exact: ["isig value", "isig-wert", "isig wert", "isig-waarde", "isig-værdi"]),
        .basalRate: Spellings(exact: ["basal rate (u/h)", "basalrate (ie/h)", "basalrate (e/h)", "basaalsnelheid (e/u)",
                                      "basalrate (e/t)"]),
        .bolusType: Spellings(exact: ["bolus type", "bolustyp", "bolus-typ", "bolustype"]),
        .bolusSelected: Spellings(exact: ["bolus volume selected (u)", "gewähltes bolusvolumen (ie)", "bolusvolumen gewählt (ie)",
                                          "geselecteerd bolusvolume (e)"]),
        .bolusDelivered: Spellings(exact: ["bolus volume delivered (u)", "abgegebene bolusmenge (ie)", "bolusvolumen abgegeben (ie)",
                                           "toegediend bolusvolume (e)", "afgivet bolusvolumen (e)"]),
        .bolusDuration: Spellings(exact: ["bolus duration (h:mm:ss)", "bolus duration (hh:mm:ss)", "bolusdauer (hh:mm:ss)",
                                          "bolusdauer (h:mm:ss)", "bolusduur (u:mm:ss)"]),
        .bolusNumber: Spellings(exact: ["bolus number", "bolusnummer"]),
        .carbInput: Spellings(exact: ["bwz carb input (grams)", "bolusexpert: kh-eingabe (gramm)", "bolus wizard: kh-eingabe (gramm)",
                                      "bwz-kh-eingabe (gramm)", "bwz koolhydraatinvoer (gram)", "bwz kulhydratinput (gram)"]),
        .eventMarker: Spellings(exact: ["event marker", "ereignismarkierung", "ereignismarker", "gebeurtenismarkering"]),
        .alarm: Spellings(exact: ["alarm", "alert", "alarme", "alarma"]),
        .suspend: Spellings(exact: ["suspend", "unterbrechen", "unterbrechung", "onderbreken"]),
        .rewind: Spellings(exact: ["rewind", "rücklauf", "terugspoelen"]),
        .rawType: Spellings(exact: ["raw-type", "roh-typ", "rohtyp"]),
        .rawValues: Spellings(exact: ["raw-values", "roh-werte", "rohwerte"]),
    ]

    /// The column a role has in a header, with the glucose unit when the spelling carries one.
    static func find(_ role: CareLinkRole, in cells: [String]) -> Int? {
        guard let s = table[role] else { return nil }
        return cells.firstIndex { c in s.exact.contains(c) || s.prefix.contains { c.hasPrefix($0) } }
    }

    static func isWord(_ cell: String, of role: CareLinkRole) -> Bool {
        table[role]?.exact.contains(cell) ?? false
    }

    /// First lines of the CareLink Personal "Data Export File" in each language (a preamble, then the header).
    static let preambleMarks = ["data export file (v", "datenexport-datei (v", "gegevensexportbestand (v",
                                "fichier d'exportation de données (v", "archivo de exportación de datos (v", "file di esportazione dati (v"]
}
