/// The Nightscout fields HealthPipe reads, across entries, treatments, device status and profiles
/// (one path table: one file may mix them, as a whole-database `mongoexport` does).
enum NightscoutFields {
    static let paths = [
        // entries
        "type", "sgv", "mbg", "date", "dateString", "sysTime", "utcOffset", "device", "direction", "trend",
        // treatments
        "eventType", "created_at", "timestamp", "mills", "insulin", "carbs", "protein", "fat", "duration", "rate",
        "absolute", "percent", "notes", "enteredBy", "glucose", "glucoseType", "units", "enteredinsulin",
        "targetTop", "targetBottom", "reason", "profile", "isAbsolute", "temp", "app",
        // profiles
        "store", "defaultProfile", "startDate",
        // device status
        "openaps", "loop", "pump", "uploader", "uploaderBattery", "openaps.iob.iob", "openaps.iob.#.iob",
        "openaps.suggested.COB", "openaps.enacted.COB", "loop.iob.iob", "loop.cob.cob", "pump.iob.iob", "pump.iob.bolusiob", "pump.reservoir",
        "pump.battery.percent", "uploader.battery",
    ]
    static let table = JSONPathTable(paths)

    private static func slot(_ path: String) -> Int { paths.firstIndex(of: path)! }

    static let type = slot("type"), sgv = slot("sgv"), mbg = slot("mbg"), date = slot("date")
    static let dateString = slot("dateString"), sysTime = slot("sysTime"), utcOffset = slot("utcOffset")
    static let device = slot("device"), direction = slot("direction"), trend = slot("trend")
    static let eventType = slot("eventType"), createdAt = slot("created_at"), timestamp = slot("timestamp")
    static let mills = slot("mills"), insulin = slot("insulin"), carbs = slot("carbs"), protein = slot("protein")
    static let fat = slot("fat"), duration = slot("duration"), rate = slot("rate"), absolute = slot("absolute")
    static let percent = slot("percent"), notes = slot("notes"), enteredBy = slot("enteredBy")
    static let glucose = slot("glucose"), glucoseType = slot("glucoseType"), units = slot("units")
    static let enteredInsulin = slot("enteredinsulin"), targetTop = slot("targetTop"), targetBottom = slot("targetBottom")
    static let reason = slot("reason"), profile = slot("profile")
    static let isAbsolute = slot("isAbsolute"), temp = slot("temp"), app = slot("app")
    static let store = slot("store"), defaultProfile = slot("defaultProfile"), startDate = slot("startDate")
    static let openaps = slot("openaps"), loop = slot("loop"), pump = slot("pump"), uploader = slot("uploader")
    static let uploaderBattery = slot("uploaderBattery")
    static let openapsIOB = slot("openaps.iob.iob"), openapsIOBList = slot("openaps.iob.#.iob")
    static let openapsCOB = slot("openaps.suggested.COB"), openapsEnactedCOB = slot("openaps.enacted.COB")
    static let loopIOB = slot("loop.iob.iob"), loopCOB = slot("loop.cob.cob")
    static let pumpIOB = slot("pump.iob.iob"), pumpBolusIOB = slot("pump.iob.bolusiob")
    static let pumpReservoir = slot("pump.reservoir"), pumpBattery = slot("pump.battery.percent")
    static let uploaderBatteryNested = slot("uploader.battery")

    /// What a document is, from its keys.
    enum Kind { case entry, treatment, profile, deviceStatus, unknown }

    static func kind(of doc: JSONDocument) -> Kind {
        if doc.has(eventType) { return .treatment }
        if doc.has(sgv) || doc.has(mbg) || doc.equals(type, "sgv") || doc.equals(type, "mbg") || doc.equals(type, "cal") {
            return .entry
        }
        if doc.kind(store) == .object { return .profile }
        if doc.has(openaps) || doc.has(loop) || doc.has(pump) || doc.has(uploader) || doc.has(uploaderBattery) {
            return .deviceStatus
        }
        if doc.has(createdAt), doc.has(insulin) || doc.has(carbs) { return .treatment }
        // An entry of another type (`sensor`, one no uploader documents): counted under its type.
        if doc.withText(type, { !$0.isEmpty }) == true, doc.has(date) || doc.has(dateString) { return .entry }
        return .unknown
    }
}
