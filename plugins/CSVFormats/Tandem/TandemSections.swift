import HealthPipeCore

/// The sections of a t:connect Therapy Timeline export, each a CSV table after a blank line and
/// recognised by its header (never by position: the sections come in any order).
enum TandemSection {
    case readings(Readings), iob(IOB), basal(Basal), bolus(Bolus), unknown

    struct Readings { var deviceType: Int, serial: Int, description: Int, time: Int, value: Int, unit: GlucoseUnit }
    struct IOB { var time: Int, iob: Int }
    struct Basal { var time: Int, rate: Int, duration: Int? }
    struct Bolus {
        var time: Int, request: Int?, completion: Int?, description: Int?, insulin: Int, carbs: Int?, status: Int?
        var bolexInsulin: Int?, bolexStart: Int?, bolexCompletion: Int?
        var extras: [(name: String, index: Int)]
    }

    /// The section a header row opens, or nil when the row is not a known section header.
    init?(header cells: [String]) {
        let names = cells.map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\"", with: "") }
        func col(_ n: String) -> Int? { names.firstIndex { $0.caseInsensitiveCompare(n) == .orderedSame } }
        if let v = TandemWords.readings.lazy.compactMap(col).first, let t = col("EventDateTime"), col("Description") != nil {
            let unit: GlucoseUnit = names[v].lowercased().contains("mmol") ? .mmol : .mgdl
            self = .readings(Readings(deviceType: col("DeviceType") ?? 0, serial: col("SerialNumber") ?? 1,
                                      description: col("Description") ?? 2, time: t, value: v, unit: unit))
        } else if let b = col("BolusRequestID") ?? col("InsulinDelivered"),
                  let t = col("EventDateTime") ?? col("RequestDateTime") ?? col("CompletionDateTime") {
            let known: Set<String> = ["Type", "EventDateTime", "RequestDateTime", "CompletionDateTime", "Description", "InsulinDelivered",
                                      "CarbSize", "CompletionStatusDesc", "BolexInsulinDelivered", "BolexStartDateTime",
                                      "BolexCompletionDateTime"]
            let extras = ["BG", "IOB", "BolusType", "BolusRequestOptions", "TargetBG", "CorrectionFactor", "FoodBolusSize",
                          "CorrectionBolusSize", "ActualTotalBolusRequested", "UserOverride", "Note"]
                .filter { !known.contains($0) }.compactMap { n in col(n).map { (n, $0) } }
            self = .bolus(Bolus(time: t, request: col("RequestDateTime"), completion: col("CompletionDateTime"),
                                description: col("Description"), insulin: col("InsulinDelivered") ?? b, carbs: col("CarbSize"),
                                status: col("CompletionStatusDesc"), bolexInsulin: col("BolexInsulinDelivered"),
                                bolexStart: col("BolexStartDateTime"), bolexCompletion: col("BolexCompletionDateTime"),
                                extras: extras))
        } else if let r = col("BasalRate"), let t = col("EventDateTime") {
            self = .basal(Basal(time: t, rate: r, duration: col("Duration")))
        } else if let i = col("IOB"), let t = col("EventDateTime"), col("EventID") != nil || names.count <= 5 {
            self = .iob(IOB(time: t, iob: i))
        } else if col("EventDateTime") != nil {
            self = .unknown
        } else {
            return nil
        }
    }
}

/// Header words of the t:connect layouts, one place: the value column of a readings section in the
/// Therapy Timeline (`Readings (CGM / BGM)`) and in the current export, which splits CGM (`Readings
/// (mg/dL)`, EGV rows) from meter readings (`BG (mg/dL)`, with a `Note`).
enum TandemWords {
    static let readings = ["Readings (CGM / BGM)", "Readings (CGM / BG)", "Readings (mg/dL)", "Readings (mmol/L)",
                           "BG (mg/dL)", "BG (mmol/L)"]
    /// ISO local times with a `T` (Therapy Timeline) or a space.
    static let timePatterns = ["%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S"]
}
