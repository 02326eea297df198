import Foundation

/// What a LibreView column holds, whatever the language of its header.
enum LibreViewRole: Sendable, CaseIterable {
    case device, serial, rowID, timestamp, recordType
    case historic, scan, strip
    case rapidText, rapid, foodText, carbsGrams, carbsServings, longText, long, notes
    case ketone, mealInsulin, correctionInsulin, userChangeInsulin
    case previousTime, updatedTime

    /// Columns that name the row rather than hold a reading or an entry.
    var isIdentity: Bool { [.device, .serial, .rowID, .timestamp, .recordType].contains(self) }
}

/// Every header word LibreView (web site and LibreLink app) and the older FreeStyle Libre desktop
/// software write, per language, as DATA: one table, no language-specific code. Spellings are given
/// without the glucose unit (`Historic Glucose mg/dL`, `Historic Glucose(mg/dL)` and
/// `Historic Glucose mmol/L` are all `historic glucose`), compared case-, accent- and
/// space-insensitively (`LibreViewVocabulary.stem`). Where a spelling came from is in
/// docs/vendors/libreview.md. Languages not listed here are read by structure (`LibreViewStructure`).
enum LibreViewVocabulary {
    struct Language: Sendable {
        var code: String
        var words: [LibreViewRole: [String]]
        /// How the first line of an export starts (lower case, the first two cells).
        var preambles: [String] = []
    }

    static let languages: [Language] = [
        Language(code: "en", words: [
            .device: ["Device"], .serial: ["Serial Number"], .rowID: ["ID"],
            .timestamp: ["Device Timestamp", "Meter Timestamp", "Time"], .recordType: ["Record Type"],
            .historic: ["Historic Glucose"], .scan: ["Scan Glucose"], .strip: ["Strip Glucose"],
            .rapidText: ["Non-numeric Rapid-Acting Insulin"], .rapid: ["Rapid-Acting Insulin (units)"],
            .foodText: ["Non-numeric Food"], .carbsGrams: ["Carbohydrates (grams)"], .carbsServings: ["Carbohydrates (servings)"],
            .longText: ["Non-numeric Long-Acting Insulin"],
            .long: ["Long-Acting Insulin Value (units)", "Long-Acting Insulin (units)"],
            .notes: ["Notes"], .ketone: ["Ketone", "Historic Ketone", "Scan Ketone"],
            .mealInsulin: ["Meal Insulin (units)"], .correctionInsulin: ["Correction Insulin (units)"],
            .userChangeInsulin: ["User Change Insulin (units)"],
            .previousTime: ["Previous Time"], .updatedTime: ["Updated Time"],
        ], preambles: ["glucose data,generated on", "patient report,generated on"]),
        Language(code: "de", words: [
            .device: ["Gerät"], .serial: ["Seriennummer"], .timestamp: ["Gerätezeitstempel"], .recordType: ["Aufzeichnungstyp"],
            .historic: ["Glukosewert-Verlauf"], .scan: ["Glukose-Scan"], .strip: ["Glukose-Teststreifen"],
            .rapidText: ["Nicht numerisches schnellwirkendes Insulin"], .rapid: ["Schnellwirkendes Insulin (Einheiten)"],
            .foodText: ["Nicht numerische Nahrungsdaten"], .carbsGrams: ["Kohlenhydrate (Gramm)"],
            .carbsServings: ["Kohlenhydrate (Portionen)"], .longText: ["Nicht numerisches Depotinsulin"],
            .long: ["Depotinsulin (Einheiten)"], .notes: ["Notizen"], .ketone: ["Keton"],
            .mealInsulin: ["Mahlzeiteninsulin (Einheiten)"], .correctionInsulin: ["Korrekturinsulin (Einheiten)"],
            .userChangeInsulin: ["Insulin-Änderung durch Anwender (Einheiten)"],
        ], preambles: ["glukose-werte,erstellt am"]),
        Language(code: "fr", words: [
            .device: ["Appareil"], .serial: ["Numéro de série"], .timestamp: ["Horodatage de l'appareil"],
            .recordType: ["Type d'enregistrement"],
            .historic: ["Historique de la glycémie"], .scan: ["Numérisation de la glycémie"],
            .strip: ["Glycémie par bandelette"],
            .rapidText: ["Insuline à action rapide sans valeur numérique"], .rapid: ["Insuline à action rapide (unités)"],
            .foodText: ["Alimentation sans valeur numérique"], .carbsGrams: ["Glucides (grammes)"],
            .carbsServings: ["Glucides (portions)"], .longText: ["Insuline à action longue sans valeur numérique"],
            .long: ["Insuline à action longue (unités)"], .notes: ["Remarques"], .ketone: ["Cétone"],
            .mealInsulin: ["Insuline repas (unités)"], .correctionInsulin: ["Correction insuline (unités)"],
            .userChangeInsulin: ["Insuline modifiée par l'utilisateur (unités)"],
        ], preambles: ["valeur de glycémie,créé le"]),
        // Spain (LibreView and the "Informe del paciente" clinic report), Latin America, and the older
        // desktop software (`ID;Hora;Tipo de registro;Histórico glucosa (mg/dL);Glucosa leída (mg/dL)`).
        Language(code: "es", words: [
            .device: ["Dispositivo"], .serial: ["Número de serie", "Número de serial"], .timestamp: ["Sello de tiempo del dispositivo", "Hora"],
            .recordType: ["Tipo de registro"],
            .historic: ["Historial de glucosa", "Histórico glucosa"], .scan: ["Escaneo de glucosa", "Glucosa leída"],
            .strip: ["Tira reactiva para glucosa", "Banda de glucosa", "Glucosa de la tira"],
            .rapidText: ["Insulina de acción rápida no numérica", "Insulina de acción rápida sin valor numérico"],
            .rapid: ["Insulina de acción rápida (unidades)"],
            .foodText: ["Alimento no numérico", "Alimentos sin valor numérico"], .carbsGrams: ["Carbohidratos (gramos)"],
            .carbsServings: ["Carbohidratos (porciones)", "Carbohidratos (raciones)"],
            .longText: ["Insulina de acción larga no numérica", "Insulina de acción prolongada no numérica",
                        "Insulina de acción lenta sin valor numérico"],
            .long: ["Insulina de acción larga (unidades)", "Insulina de acción prolongada (unidades)", "Insulina de acción lenta (unidades)"],
            .notes: ["Notas"], .ketone: ["Cuerpos cetónicos", "Cetona", "Cetonas"],
            .mealInsulin: ["Comida e insulina (unidades)", "Insulina para la hora de la comida (unidades)", "Insulina comida (unidades)"],
            .correctionInsulin: ["Insulina de corrección (unidades)", "Insulina corrección (unidades)"],
            .userChangeInsulin: ["Insulina del cambio de usuario (unidades)", "Insulina de cambio de usuario (unidades)",
                                 "Insulina cambio usuario (unidades)"],
            .previousTime: ["Hora anterior"], .updatedTime: ["Hora actualizada"],
        ], preambles: ["datos de glucosa,generado el", "informe del paciente,generado el"]),
        // Italian: the record-type word is not known from a real file; such headers are read by structure.
        Language(code: "it", words: [
            .timestamp: ["Timestamp del dispositivo"], .historic: ["Storico del glucosio"],
            .carbsGrams: ["Carboidrati (grammi)"], .rapid: ["Insulina ad azione rapida (unità)"],
            .long: ["Insulina ad effetto prolungato (unità)"],
        ]),
        Language(code: "nl", words: [
            .device: ["Apparaat"], .serial: ["Serienummer"], .timestamp: ["Tijdstempel apparaat"], .recordType: ["Gegevenstype"],
            .historic: ["Historische glucose"], .strip: ["Strip Glucose"],
            .rapidText: ["Niet-numerieke snelwerkende insuline"], .rapid: ["Snelwerkende insuline (eenheden)"],
            .foodText: ["Niet-numeriek voedsel"], .carbsGrams: ["Koolhydraten (gram)"], .carbsServings: ["Koolhydraten (porties)"],
            .longText: ["Niet-numerieke langwerkende insuline"], .long: ["Langwerkende insuline (eenheden)"],
            .notes: ["Notities"], .ketone: ["Keton"], .mealInsulin: ["Maaltijdinsuline (eenheden)"],
            .correctionInsulin: ["Correctie insuline (eenheden)"], .userChangeInsulin: ["Wijzigen insuline gebruiker (eenheden)"],
        ], preambles: ["glucosegegevens,gegenereerd op"]),
        Language(code: "zh-TW", words: [
            .device: ["裝置"], .serial: ["序號"], .timestamp: ["裝置時間戳記"], .recordType: ["記錄類型"],
            .historic: ["歷史葡萄糖"], .scan: ["掃描葡萄糖"], .strip: ["葡萄糖試紙"],
            .rapidText: ["非數值速效胰島素"], .rapid: ["速效胰島素（單位）"], .foodText: ["非數值食品"],
            .carbsGrams: ["碳水化合物（克）"], .carbsServings: ["碳水化合物（份）"], .longText: ["非數值長效胰島素"],
            .long: ["長效胰島素（單位）"], .notes: ["備註"], .ketone: ["血酮", "歷史資料的酮體", "掃描酮體"],
            .mealInsulin: ["餐時胰島素（單位）"], .correctionInsulin: ["校正胰島素（單位）"],
            .userChangeInsulin: ["使用者變更胰島素（單位）"],
        ], preambles: ["葡萄糖資料,產生於"]),
        Language(code: "ru", words: [:], preambles: ["данные о глюкозе,создано"]),
    ]

    /// The column order every LibreView export since 2018 shares, whatever its language: 19 columns,
    /// and 21 where two ketone columns follow (mmol/L accounts, Libre 2/3 with ketone sensing).
    static let layouts: [[LibreViewRole]] = {
        let base: [LibreViewRole] = [.device, .serial, .timestamp, .recordType, .historic, .scan, .rapidText, .rapid,
                                     .foodText, .carbsGrams, .carbsServings, .longText, .long, .notes, .strip, .ketone,
                                     .mealInsulin, .correctionInsulin, .userChangeInsulin]
        return [base, base + [.ketone, .ketone]]
    }()

    /// Every first-line preamble of every language, compared like `fold`.
    static let preambles: [String] = languages.flatMap(\.preambles).map(fold)

    /// Lower case, no accents, no quotes or BOM: how preambles are compared.
    static func fold(_ text: String) -> String {
        HeaderText.normalize(text).folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Spelling stem → role, over every language (built once).
    static let roles: [String: LibreViewRole] = {
        var out: [String: LibreViewRole] = [:]
        for language in languages {
            for (role, words) in language.words {
                for w in words { out[stem(w)] = role }
            }
        }
        return out
    }()

    /// Lower case, no accents, single spaces, no quotes or BOM, and no trailing glucose or ketone unit:
    /// `"Historic Glucose(mg/dL)"` → `historic glucose`.
    static func stem(_ cell: String) -> String {
        var s = fold(cell)
        for unit in ["(mg/dl)", "(mmol/l)", "mg/dl", "mmol/l"] where s.hasSuffix(unit) {
            s.removeLast(unit.count)
            break
        }
        return s.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}
