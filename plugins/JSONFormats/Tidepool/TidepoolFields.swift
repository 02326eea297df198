/// The Tidepool data-model fields HealthPipe reads (docs: Tidepool "Diabetes Data Types").
enum TidepoolFields {
    static let paths = [
        "type", "subType", "time", "timezoneOffset", "deviceId", "uploadId", "id", "units", "value",
        "annotations.#.code", "annotations.#.value",
        // bolus, insulin
        "normal", "extended", "duration", "dose.total", "dose.units",
        // basal
        "deliveryType", "rate", "percent", "scheduleName",
        // food, wizard
        "nutrition.carbohydrate.net", "nutrition.carbohydrate.units", "nutrition.fat.total", "nutrition.protein.total",
        "name", "carbInput",
        // physical activity
        "duration.value", "duration.units", "reportedIntensity", "activityType",
    ]
    static let table = JSONPathTable(paths)
    private static func slot(_ path: String) -> Int { paths.firstIndex(of: path)! }

    static let type = slot("type"), subType = slot("subType"), time = slot("time"), timezoneOffset = slot("timezoneOffset")
    static let deviceId = slot("deviceId"), uploadId = slot("uploadId"), id = slot("id"), units = slot("units"), value = slot("value")
    static let annotationCode = slot("annotations.#.code"), annotationValue = slot("annotations.#.value")
    static let normal = slot("normal"), extended = slot("extended"), duration = slot("duration")
    static let doseTotal = slot("dose.total"), doseUnits = slot("dose.units")
    static let deliveryType = slot("deliveryType"), rate = slot("rate"), percent = slot("percent"), scheduleName = slot("scheduleName")
    static let carbsNet = slot("nutrition.carbohydrate.net"), carbsUnits = slot("nutrition.carbohydrate.units")
    static let fat = slot("nutrition.fat.total"), protein = slot("nutrition.protein.total"), name = slot("name")
    static let carbInput = slot("carbInput")
    static let durationValue = slot("duration.value"), durationUnits = slot("duration.units")
    static let intensity = slot("reportedIntensity"), activityType = slot("activityType")

    /// Data types HealthPipe imports; the others (settings, uploads, dosing decisions…) are counted in a warning.
    static let imported: Set<String> = ["cbg", "smbg", "bloodKetone", "bolus", "basal", "food", "wizard", "physicalActivity",
                                        "deviceEvent", "insulin"]
    /// Every data type of the Tidepool model, for content detection.
    static let known: Set<String> = imported.union(["upload", "pumpSettings", "cgmSettings", "controllerSettings",
                                                    "controllerStatus", "pumpStatus", "dosingDecision", "reportedState",
                                                    "water", "alert", "deviceStatus"])
}
