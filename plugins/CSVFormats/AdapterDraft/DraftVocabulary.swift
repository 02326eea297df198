/// Header words that tell what a column of an unknown CSV holds, in the languages health exports
/// come in (lower-case; matched as parts of a normalized header cell). Data, not code paths: a
/// new language is a few more words here.
enum DraftVocabulary {
    static let time = ["timestamp", "date", "time", "datum", "zeit", "uhrzeit", "fecha", "hora", "heure", "horodat", "data",
                       "ora", "tijd", "tid", "czas", "aika", "päivä", "時間", "日時", "日付", "时间", "時刻", "日期", "시간", "날짜"]
    static let glucose = ["glucose", "glukose", "glucosa", "glicemia", "glycémie", "glycemie", "glicose", "glucosio", "glykemie",
                          "glukoosi", "glukos", "glikemia", "glukoza", "bz", "bg", "blood sugar", "blutzucker", "sgv", "cgm",
                          "sensor", "mg/dl", "mmol", "血糖", "グルコース", "葡萄糖", "혈당"]
    static let carbs = ["carb", "kohlenhydrat", "glucid", "carboidrat", "hidratos", "koolhydra", "węglowodan", "kulhydrat",
                        "kolhydrat", "hiilihydraat", "sacharid", "炭水化物", "碳水", "탄수화물"]
    static let insulin = ["insulin", "insuline", "insulina", "insuliini", "bolus", "basal", "インスリン", "胰岛素", "胰島素", "인슐린"]
    static let basal = ["basal", "long", "lang", "lente", "lenta", "langsam", "持効", "基础", "基礎"]
    static let note = ["note", "notiz", "comment", "kommentar", "remarque", "nota", "notatka", "opmerking", "anmerkung",
                       "bemerkung", "merknad", "huomautus", "メモ", "备注", "備註", "메모"]
    /// Header words that name an mmol/L or mg/dL unit.
    static let mmol = ["mmol"]
    static let mgdl = ["mg/dl", "mg / dl", "mgdl", "mg/dℓ"]

    static func has(_ header: String, _ words: [String]) -> Bool { words.contains { header.contains($0) } }
}
