/// Every word Dexcom Clarity writes, per export language, in one table: the header cells of each
/// column, the event-type codes, the `Low`/`High` readings and the exercise intensities. Only
/// spellings seen in real exports or in parsers of people's own exports are listed (the source is
/// in docs/vendors/dexcom.md); everything else is found by structure (`ClarityColumns`,
/// `ClarityRowMapper`), so a language missing here still imports whole.
enum ClarityVocabulary {
    struct Language {
        let code: String
        /// Header cells, normalized (lower case, no quotes/BOM), matched as prefixes.
        var header: [ClarityRole: [String]] = [:]
        /// Event Type codes, exact.
        var events: [ClarityEventKind: [String]] = [:]
        var low: [String] = [], high: [String] = []
        /// Event Subtype of an insulin row that means basal insulin.
        var longActing: [String] = []
        /// Exercise subtypes by canonical intensity (`light`, `medium`, `heavy`).
        var intensity: [String: [String]] = [:]
    }

    static let languages: [Language] = [
        Language(code: "en",
                 header: [.timestamp: ["timestamp ("], .eventType: ["event type"], .subtype: ["event subtype"],
                          .deviceInfo: ["device info"], .sourceDevice: ["source device id"], .glucose: ["glucose value"],
                          .insulin: ["insulin value"], .carbs: ["carb value"], .duration: ["duration"],
                          .transmitterTime: ["transmitter time"], .transmitterID: ["transmitter id"]],
                 events: [.egv: ["EGV"], .calibration: ["Calibration"], .fastingGlucose: ["Fasting Glucose"], .carbs: ["Carbs"],
                          .insulin: ["Insulin"], .exercise: ["Exercise", "Activity"], .health: ["Health"], .alert: ["Alert"],
                          .device: ["Device"], .metadata: ["FirstName", "LastName", "PatientIdentifier", "DateOfBirth"]],
                 low: ["Low"], high: ["High"], longActing: ["Long-Acting"],
                 intensity: ["light": ["Light"], "medium": ["Medium"], "heavy": ["Heavy"]]),
        Language(code: "es",
                 header: [.timestamp: ["marca temporal"], .eventType: ["tipo de evento"], .subtype: ["subtipo de evento"],
                          .deviceInfo: ["información del dispositivo", "informacion del dispositivo"],
                          .sourceDevice: ["id. del dispositivo de origen", "id del dispositivo de origen"],
                          .glucose: ["nivel de glucosa"], .insulin: ["nivel de insulina", "valor de insulina"],
                          .carbs: ["nivel de carbohidratos", "valor de carbohidratos"], .duration: ["duración", "duracion"],
                          .transmitterID: ["id. del transmisor", "id del transmisor"]],
                 events: [.egv: ["Niveles estimados de glucosa"],
                          .device: ["Dispositivo"], .alert: ["Alerta"],
                          .metadata: ["Nombre", "Apellido", "Identificador del paciente", "Fecha de nacimiento"]]),
        Language(code: "fr",
                 header: [.timestamp: ["horodateur"], .eventType: ["type d'événement", "type d’événement"],
                          .glucose: ["valeur de glycémie", "valeur de glycemie"]],
                 low: ["Bas"]),
        // German: `Ereignisart` and the code `EGV` from a parser of a user's own export; `Niedrig`/`Hoch` from a
        // study pipeline that drops them from `Glukosewert (mmol/l)` (docs/vendors/dexcom.md, per word).
        Language(code: "de",
                 header: [.timestamp: ["zeitstempel"], .eventType: ["ereignisart"], .glucose: ["glukosewert"]],
                 events: [.egv: ["EGV"]],
                 low: ["Niedrig"], high: ["Hoch"]),
        Language(code: "ja",
                 header: [.index: ["索引"], .timestamp: ["タイムスタンプ"], .eventType: ["イベント タイプ"], .subtype: ["イベント サブタイプ"],
                          .deviceInfo: ["デバイス情報"], .sourceDevice: ["ソースデバイス id"], .glucose: ["グルコース値"],
                          .insulin: ["インスリン値"], .carbs: ["炭水化物値"], .duration: ["期間"],
                          .transmitterTime: ["トランスミッター時刻"], .transmitterID: ["トランスミッター id"]],
                 events: [.egv: ["EGV"], .fastingGlucose: ["空腹時グルコース"], .carbs: ["食事"], .exercise: ["活動"],
                          .alert: ["アラート"], .device: ["デバイス"], .metadata: ["名", "姓"]],
                 intensity: ["light": ["軽い"], "medium": ["ミディアム"]]),
    ]

    /// Role → every language's spellings (built once).
    static let headerWords: [ClarityRole: [String]] = {
        var all: [ClarityRole: [String]] = [:]
        for l in languages { for (role, words) in l.header { all[role, default: []] += words } }
        return all
    }()

    /// Event Type code → kind (built once; looked up once per distinct code in a file).
    static let eventKinds: [String: ClarityEventKind] = {
        var all: [String: ClarityEventKind] = [:]
        for l in languages { for (kind, codes) in l.events { for c in codes { all[c.lowercased()] = kind } } }
        return all
    }()

    static let lowWords = languages.flatMap(\.low).map { Array($0.utf8) }
    static let highWords = languages.flatMap(\.high).map { Array($0.utf8) }
    static let longActingWords = Set(languages.flatMap(\.longActing).map { $0.lowercased() })
    static let intensities: [String: String] = {
        var all: [String: String] = [:]
        for l in languages { for (canonical, words) in l.intensity { for w in words { all[w.lowercased()] = canonical } } }
        return all
    }()

    static func eventKind(of code: String) -> ClarityEventKind {
        eventKinds[code.lowercased()] ?? .unknown
    }
}

/// The columns of a Clarity export, in the order Clarity writes them.
enum ClarityRole: Int, CaseIterable {
    case index, timestamp, eventType, subtype, patientInfo, deviceInfo, sourceDevice, glucose, insulin, carbs, duration,
         rateOfChange, transmitterTime, transmitterID
}

/// What a row's Event Type means.
enum ClarityEventKind: UInt8 {
    case egv, calibration, fastingGlucose, carbs, insulin, exercise, health, alert, device, metadata, unknown
}

/// Event Type cell → kind without a String per row: the codes seen in this file are kept as bytes and
/// the last one is compared first (consecutive rows nearly always share it).
struct ClarityEventKinds {
    private var codes: [[UInt8]] = []
    private var kinds: [ClarityEventKind] = []
    private var last = -1

    mutating func kind(_ cell: UnsafeRawBufferPointer) -> ClarityEventKind {
        if last >= 0, Self.same(codes[last], cell) { return kinds[last] }
        for i in codes.indices where Self.same(codes[i], cell) {
            last = i
            return kinds[i]
        }
        let kind = ClarityVocabulary.eventKind(of: String(decoding: cell, as: UTF8.self))
        if codes.count < 64 {
            codes.append(Array(cell))
            kinds.append(kind)
            last = codes.count - 1
        }
        return kind
    }

    @inline(__always)
    private static func same(_ a: [UInt8], _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { memcmp($0.baseAddress!, b.baseAddress!, a.count) == 0 }
    }
}

import Foundation
