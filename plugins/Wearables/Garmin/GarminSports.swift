/// Garmin Connect writes the activity type in the account's language (`Løb`, `Laufbandtraining`,
/// `Natação em piscina`) — older exports wrote Garmin's own type key (`running`, `street_running`).
/// The event's subtype is that type key, so one sport has one name whatever the language; a name not
/// listed here keeps its own words, snake-cased (`Yoga` → `yoga`), and the metadata keeps the text as
/// written. Every name here was read in a real export (Tests/Fixtures/real/garmin/PROVENANCE.md).
enum GarminSports {
    static let typeKeys: [String: String] = [
        // running
        "running": "running", "løb": "running", "laufen": "running", "corrida": "running", "carrera": "running",
        "löpning": "running", "futás": "running", "bieganie": "running", "løb terræn": "trail_running",
        "treadmill running": "treadmill_running", "laufbandtraining": "treadmill_running",
        "corrida em esteira": "treadmill_running", "entrenamiento en cinta": "treadmill_running", "löpband": "treadmill_running",
        "trail running": "trail_running", "corrida em trilhas": "trail_running",
        "laufen auf der bahn": "track_running", "beltéri futás": "indoor_running",
        // cycling
        "ciclismo": "cycling", "cykling": "cycling", "kerékpározás": "cycling", "ciclismo em estradas": "road_biking",
        "ciclismo na montanha": "mountain_biking", "ciclismo em local fechado": "indoor_cycling",
        "inomhuscykling": "indoor_cycling", "szobakerékpározás": "indoor_cycling", "ciclismo virtual": "virtual_ride",
        // swimming
        "pool swim": "lap_swimming", "natação em piscina": "lap_swimming", "simbassäng": "lap_swimming",
        "svøm i pool": "lap_swimming", "svømning i åbent vand": "open_water_swimming",
        "natação em alto mar": "open_water_swimming", "nyíltvízi úszás": "open_water_swimming",
        // other
        "styrketräning": "strength_training", "erősítő edzés": "strength_training", "gång": "walking", "gyaloglás": "walking",
        "styrketræning": "strength_training", "gang": "walking", "vandring": "hiking", "cykling på grusveje": "gravel_cycling",
    ]

    /// The type key of an activity type as written: `Corrida em esteira` → `treadmill_running`.
    static func typeKey(_ written: String) -> String {
        let lower = written.lowercased()
        return typeKeys[lower] ?? lower.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "_")
    }
}
