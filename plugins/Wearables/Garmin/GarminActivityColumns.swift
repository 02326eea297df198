/// The header words of Garmin Connect's `Activities.csv` ("Export CSV" on the activities list) in every
/// language it is written in: Connect translates the header into the account's language and keeps the
/// values' layout (docs/formats.md). One table, so a new language is one word per field. Words marked
/// "real" were read in real exports (Tests/Fixtures/real/garmin); the others come from headers quoted
/// by people's parsers and are unverified on a real file.
enum GarminActivityColumns {
    enum Field: CaseIterable { case type, date, title, distance, calories, time, avgHR, maxHR, steps, movingTime, elapsedTime }

    static let words: [Field: [String]] = [
        // real: en (2017, 2025, 2026), da (2020, 2025), de, pt, es, sv, hu, fi, pl; quoted: nb, fr, it
        .type: ["Activity Type", "Aktivitetstype", "Aktivitätstyp", "Tipo de atividade", "Tipo de actividad",
                "Aktivitetstyp", "Tevékenység típusa", "Suorituksen tyyppi", "Typ aktywności", "Type d'activité", "Tipo di attività"],
        .date: ["Date", "Dato", "Datum", "Data", "Fecha", "Dátum", "Päiväys"],
        .title: ["Title", "Titel", "Título", "Namn", "Cím", "Otsikko", "Tytuł", "Tittel", "Titre", "Titolo"],
        .distance: ["Distance", "Distanz", "Distância", "Distancia", "Distans", "Távolság", "Matka", "Dystans", "Distanse", "Distanza"],
        .calories: ["Calories", "Kalorier", "Kalorien", "Calorias", "Calorías", "Kalóriaszám", "Kalorit", "Kalorie", "Totale kalorier",
                    "Calorie"],
        .time: ["Time", "Tid", "Zeit", "Tempo", "Tiempo", "Idő", "Aika", "Czas", "Durée"],
        .avgHR: ["Avg HR", "Gennemsnitlig puls", "Ø Herzfrequenz", "FC Média", "Frecuencia cardiaca media", "Medelpuls",
                 "Átlagos pulzusszám", "Keskisyke", "Średnie tętno", "Ø HF", "Gjennomsnittlig puls", "Fréquence cardiaque moyenne", "FC Media"],
        .maxHR: ["Max HR", "Maks. puls", "Maximale Herzfrequenz", "FC máxima", "Maxpuls", "Max. pulzus", "Maksimisyke", "Maksymalne tętno",
                 "Max. HF", "Makspuls", "Fréquence cardiaque maximale", "FC max"],
        .steps: ["Steps", "Pasos", "Steg", "Lépések", "Skridt", "Kroki", "Passos", "Pas"],
        .movingTime: ["Moving Time", "Zeit in Bewegung", "Tempo em movimento", "Tiempo en movimiento", "Färdtid", "Menetidő", "Tid i bevægelse", "Czas ruchu"],
        .elapsedTime: ["Elapsed Time", "Verstrichene Zeit", "Duração", "Tiempo transcurrido", "Total tid", "Eltelt idő", "Tidsforbrug", "Upłynęło czasu"],
    ]

    /// Lower-cased word → field, for matching header cells.
    static let byWord: [String: Field] = {
        var out: [String: Field] = [:]
        for (field, list) in words { for w in list { out[w.lowercased()] = field } }
        return out
    }()

    /// Each field's column in a header row (the first column of a field's words wins); nil unless
    /// the header names the activity type, the date and the time: what every Garmin layout has.
    static func resolve(_ header: [String]) -> [Field: Int]? {
        var out: [Field: Int] = [:]
        for (i, cell) in header.enumerated() {
            if let f = byWord[cell.trimmingCharacters(in: .whitespaces).lowercased()], out[f] == nil { out[f] = i }
        }
        return out[.type] != nil && out[.date] != nil && out[.time] != nil && out[.title] != nil ? out : nil
    }
}
