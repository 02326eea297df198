/// What a CareLink column means, whatever language the export was written in.
enum CareLinkRole: CaseIterable, Sendable {
    case index, date, time
    case bgReading, bgSource, calibration, sensorGlucose, isig, basalRate
    case tempBasalAmount, tempBasalType, tempBasalDuration
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
/// (Gramm)` …), the newer German web export (`Bolusvolumen abgegeben`), Dutch (`Tijd`, `Boluswizard KH-invoer (gram)`, `Onbewerkt: type`/`waarden` as a Dutch user's importer reads them,
/// `BG-meetwaarde`), Danish (`Dato`, `Klokkeslæt`, `Sensorglukose (mmol/l)`) and Czech (`Čas`,
/// `Glukóza senzoru`). Not yet seen in a real export, kept so a file using them still reads (check and
/// correct when one turns up): the French/Spanish/Italian words, `Basalrate (IE/h)`, `Bolustyp`,
/// `Sensorkalibrierung BZ`, `Ereignismarkierung`, the Danish/Dutch value columns other than glucose.
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
        .bgSource: Spellings(exact: ["bg source"]),
        .calibration: Spellings(prefix: ["sensor calibration bg (", "sensorkalibrierung bz (", "bz-kalibrierung (",
                                         "kalibratie-bg sensor (", "sensorkalibrering bs ("]),
        .sensorGlucose: Spellings(prefix: ["sensor glucose (", "sensorglukose (", "sensorglucose (", "glukóza senzoru (",
                                           "glukoza senzoru (", "glucosa del sensor (", "glucose du capteur (",
                                           "glucosio sensore ("]),
        .isig: Spellings(exact: ["isig value", "isig-wert", "isig wert", "isig-waarde", "isig-værdi"]),
        .basalRate: Spellings(exact: ["basal rate (u/h)", "basalrate (ie/h)", "basalrate (e/h)", "basaalsnelheid (e/u)",
                                      "basalrate (e/t)"]),
        .tempBasalAmount: Spellings(exact: ["temp basal amount", "temp basal amount (u/h)"]),
        .tempBasalType: Spellings(exact: ["temp basal type"]),
        .tempBasalDuration: Spellings(exact: ["temp basal duration (h:mm:ss)", "temp basal duration (hh:mm:ss)"]),
        .bolusType: Spellings(exact: ["bolus type", "bolustyp", "bolus-typ", "bolustype"]),
        .bolusSelected: Spellings(exact: ["bolus volume selected (u)", "gewähltes bolusvolumen (ie)", "bolusvolumen gewählt (ie)",
                                          "geselecteerd bolusvolume (e)"]),
        .bolusDelivered: Spellings(exact: ["bolus volume delivered (u)", "abgegebene bolusmenge (ie)", "bolusvolumen abgegeben (ie)",
                                           "toegediend bolusvolume (e)", "afgivet bolusvolumen (e)"]),
        .bolusDuration: Spellings(exact: ["bolus duration (h:mm:ss)", "bolus duration (hh:mm:ss)", "bolusdauer (hh:mm:ss)",
                                          "bolusdauer (h:mm:ss)", "bolusduur (u:mm:ss)"]),
        .bolusNumber: Spellings(exact: ["bolus number", "bolusnummer"]),
        .carbInput: Spellings(exact: ["bwz carb input (grams)", "bolusexpert: kh-eingabe (gramm)", "bolus wizard: kh-eingabe (gramm)",
                                      "bwz-kh-eingabe (gramm)", "boluswizard kh-invoer (gram)", "bwz koolhydraatinvoer (gram)",
                                      "bwz kulhydratinput (gram)"]),
        .eventMarker: Spellings(exact: ["event marker", "ereignismarkierung", "ereignismarker", "gebeurtenismarkering"]),
        .alarm: Spellings(exact: ["alarm", "alert", "alarme", "alarma"]),
        .suspend: Spellings(exact: ["suspend", "unterbrechen", "unterbrechung", "onderbreken"]),
        .rewind: Spellings(exact: ["rewind", "rücklauf", "terugspoelen"]),
        .rawType: Spellings(exact: ["raw-type", "roh-typ", "rohtyp", "onbewerkt: type"]),
        .rawValues: Spellings(exact: ["raw-values", "roh-werte", "rohwerte", "onbewerkt: waarden"]),
    ]

    /// The column a role has in a header, with the glucose unit when the spelling carries one.
    static func find(_ role: CareLinkRole, in cells: [String]) -> Int? {
        guard let s = table[role] else { return nil }
        return cells.firstIndex { c in s.exact.contains(c) || s.prefix.contains { c.hasPrefix($0) } }
    }

    static func isWord(_ cell: String, of role: CareLinkRole) -> Bool {
        table[role]?.exact.contains(cell) ?? false
    }

    /// The fifth cell of a MiniMed 7xxG section marker (`-------,MiniMed 780G MMT-1885,Pump,<serial>,Aggregated
    /// Auto Insulin Data`) opening the section of SmartGuard's daily auto-insulin totals: each row is one day's
    /// total written as a `Normal` bolus at 00:00:00, not a bolus.
    static let autoInsulinSectionMarks = ["aggregated auto insulin data"]

    /// `BG Source` codes (untranslated): a 7xxG logs one finger stick as `ENTERED_IN_BG_ENTRY`, then again as
    /// `BG_SENT_FOR_CALIB` when it is sent to the sensor, then as `Sensor Calibration BG`; the sent copy is
    /// not a second reading.
    static let bgSourceRepeats = ["BG_SENT_FOR_CALIB"]

    /// Event Marker texts that mark the export's own day boundaries (a 7xxG sensor section writes one pair
    /// per day), not anything the user entered.
    static let dayBoundaryMarkers = ["start of the day", "end of the day"]

    /// First lines of the CareLink Personal "Data Export File" in each language (a preamble, then the header).
    static let preambleMarks = ["data export file (v", "datenexport-datei (v", "gegevensexportbestand (v",
                                "fichier d'exportation de données (v", "archivo de exportación de datos (v", "file di esportazione dati (v"]
}

/// Structure detection for a language the table does not know: CareLink writes the same columns in the
/// same order in every language, so a header of a known width whose cells are all words is read by
/// position against the English header of that width. The unit text in parentheses stays as written
/// (`(mmol/l)` in any language), so a glucose column keeps the file's unit.
enum CareLinkLayouts {
    /// English headers by width: the "Data Export File (v1.0.1)" (39) and Guardian Connect (48).
    static let englishByWidth: [Int: [String]] = [
        39: ["Index", "Date", "Time", "Timestamp", "New Device Time", "BG Reading (mg/dL)", "Linked BG Meter ID",
             "Temp Basal Amount (U/h)", "Temp Basal Type", "Temp Basal Duration (hh:mm:ss)", "Bolus Type",
             "Bolus Volume Selected (U)", "Bolus Volume Delivered (U)", "Programmed Bolus Duration (hh:mm:ss)", "Prime Type",
             "Prime Volume Delivered (U)", "Suspend", "Rewind", "BWZ Estimate (U)", "BWZ Target High BG (mg/dL)",
             "BWZ Target Low BG (mg/dL)", "BWZ Carb Ratio (grams)", "BWZ Insulin Sensitivity (mg/dL)", "BWZ Carb Input (grams)",
             "BWZ BG Input (mg/dL)", "BWZ Correction Estimate (U)", "BWZ Food Estimate (U)", "BWZ Active Insulin (U)", "Alarm",
             "Sensor Calibration BG (mg/dL)", "Sensor Glucose (mg/dL)", "ISIG Value", "Daily Insulin Total (U)", "Raw-Type",
             "Raw-Values", "Raw-ID", "Raw-Upload ID", "Raw-Seq Num", "Raw-Device Type"],
        48: ["Index", "Date", "Time", "New Device Time", "BG Reading (mg/dL)", "Linked BG Meter ID", "Basal Rate (U/h)",
             "Temp Basal Amount", "Temp Basal Type", "Temp Basal Duration (h:mm:ss)", "Bolus Type", "Bolus Volume Selected (U)",
             "Bolus Volume Delivered (U)", "Bolus Duration (h:mm:ss)", "Prime Type", "Prime Volume Delivered (U)", "Alarm",
             "Suspend", "Rewind", "BWZ Estimate (U)", "BWZ Target High BG (mg/dL)", "BWZ Target Low BG (mg/dL)",
             "BWZ Carb Ratio (g/U)", "BWZ Insulin Sensitivity (mg/dL/U)", "BWZ Carb Input (grams)", "BWZ BG Input (mg/dL)",
             "BWZ Correction Estimate (U)", "BWZ Food Estimate (U)", "BWZ Active Insulin (U)", "BWZ Status",
             "Sensor Calibration BG (mg/dL)", "Sensor Glucose (mg/dL)", "ISIG Value", "Event Marker", "Bolus Number",
             "Bolus Cancellation Reason", "BWZ Unabsorbed Insulin Total (U)", "Final Bolus Estimate", "Scroll Step Size",
             "Insulin Action Curve Time", "Sensor Calibration Rejected Reason", "Preset Bolus", "Bolus Source",
             "Network Device Associated Reason", "Network Device Disassociated Reason", "Network Device Disconnected Reason",
             "Sensor Exception", "Preset Temp Basal Name"],
    ]

    /// The English header for a header row in an unknown language, or nil when the row is not one:
    /// its width must be a known layout's and every cell a word (a padded preamble line has empty
    /// cells, a data row starts with a number).
    static func english(for cells: [String]) -> [String]? {
        guard let english = englishByWidth[cells.count],
              cells.allSatisfy({ c in !c.isEmpty && !(c.first?.isNumber ?? true) }) else { return nil }
        return zip(english, cells).map { en, local in
            local.lowercased().contains("mmol") ? en.replacingOccurrences(of: "(mg/dL)", with: "(mmol/L)") : en
        }
    }
}
