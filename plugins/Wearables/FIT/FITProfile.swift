/// The parts of Garmin's FIT profile (Profile.xlsx of the FIT SDK) this import reads: message and
/// field numbers, their scales and offsets, and the names of sports and activity types.
enum FITProfile {
    enum Message {
        static let fileID: UInt16 = 0, session: UInt16 = 18, lap: UInt16 = 19, record: UInt16 = 20
        static let activity: UInt16 = 34, monitoring: UInt16 = 55, monitoringInfo: UInt16 = 103
    }

    /// `file_id.type`.
    enum FileType { static let field: UInt8 = 0, activity = 4.0, monitoringA = 15.0, monitoringB = 32.0 }

    /// `session` fields: start_time, sport, sub_sport, total_elapsed_time and total_timer_time (s, scale
    /// 1000), total_distance (m, scale 100), total_calories (kcal), avg/max_heart_rate (bpm), num_laps.
    enum Session {
        static let startTime: UInt8 = 2, sport: UInt8 = 5, subSport: UInt8 = 6, elapsed: UInt8 = 7, timer: UInt8 = 8
        static let distance: UInt8 = 9, calories: UInt8 = 11, avgHeartRate: UInt8 = 16, maxHeartRate: UInt8 = 17
        static let numLaps: UInt8 = 26
    }

    /// `record` fields: position (semicircles), altitude (m, scale 5 offset 500), heart_rate (bpm),
    /// cadence (rpm), distance (m, scale 100), speed (m/s, scale 1000), power (W), and the `enhanced_`
    /// 32-bit speed and altitude newer devices write instead.
    enum Record {
        static let latitude: UInt8 = 0, longitude: UInt8 = 1, altitude: UInt8 = 2, heartRate: UInt8 = 3, cadence: UInt8 = 4
        static let speed: UInt8 = 6, power: UInt8 = 7, enhancedSpeed: UInt8 = 73, enhancedAltitude: UInt8 = 78
    }

    /// `activity.local_timestamp` and `monitoring_info.local_timestamp`: the wearer's clock at `timestamp`.
    static let activityLocalTime: UInt8 = 5, monitoringInfoLocalTime: UInt8 = 0

    /// `monitoring` fields: cycles (cumulative per activity type; steps for walking and running),
    /// activity_type, timestamp_16, current_activity_type_intensity (activity type in its low 5 bits),
    /// heart_rate, and duration_min, which marks a summary of the period before it (a vívofit ends its
    /// day with one per activity type: that type's whole-day total at the next midnight).
    enum Monitoring {
        static let cycles: UInt8 = 3, activityType: UInt8 = 5, timestamp16: UInt8 = 26, typeAndIntensity: UInt8 = 24
        static let heartRate: UInt8 = 27, durationMinutes: UInt8 = 29
    }

    static let semicircleDegrees = 180.0 / 2_147_483_648.0

    /// The profile's `sport` names (0–48), as exercise event subtypes.
    static let sports = [
        "generic", "running", "cycling", "transition", "fitness_equipment", "swimming", "basketball", "soccer", "tennis",
        "american_football", "training", "walking", "cross_country_skiing", "alpine_skiing", "snowboarding", "rowing",
        "mountaineering", "hiking", "multisport", "paddling", "flying", "e_biking", "motorcycling", "boating", "driving",
        "golf", "hang_gliding", "horseback_riding", "hunting", "fishing", "inline_skating", "rock_climbing", "sailing",
        "ice_skating", "sky_diving", "snowshoeing", "snowmobiling", "stand_up_paddleboarding", "surfing", "wakeboarding",
        "water_skiing", "kayaking", "rafting", "windsurfing", "kitesurfing", "tactical", "jumpmaster", "boxing", "floor_climbing",
    ]

    static func sport(_ n: Double?) -> String {
        guard let n else { return "generic" }
        let i = Int(n)
        return i < sports.count ? sports[i] : "sport_\(i)"
    }

    /// `activity_type` of monitoring: walking and running count steps (the profile's `steps` subfield
    /// of cycles, scale 1); cycling and swimming strokes, other types nothing a day totals.
    enum ActivityType {
        static let running: UInt8 = 1, walking: UInt8 = 6
        static let names: [UInt8: String] = [0: "generic", 1: "running", 2: "cycling", 3: "transition", 4: "fitness_equipment",
                                             5: "swimming", 6: "walking", 8: "sedentary", 254: "all"]
    }

    /// Names of the messages a file's rows are counted under (fitparse's names; others `unknown_N`).
    static func messageName(_ global: UInt16) -> String {
        switch global {
        case 0: "file_id"
        case 12: "sport"
        case 18: "session"
        case 19: "lap"
        case 20: "record"
        case 21: "event"
        case 23: "device_info"
        case 34: "activity"
        case 49: "file_creator"
        case 55: "monitoring"
        case 78: "hrv"
        case 103: "monitoring_info"
        case 132: "hr"
        case 206: "field_description"
        case 207: "developer_data_id"
        default: "unknown_\(global)"
        }
    }

    /// Device makers by `file_id.manufacturer`, for the records' source.
    static func manufacturer(_ n: Double?) -> String {
        switch n.map(Int.init) {
        case 1?: "Garmin"
        case 32?: "Wahoo"
        case 95?: "Stryd"
        case 294?: "COROS"
        case 260?: "Zwift"
        case 265?: "Strava"
        case let m?: "FIT manufacturer \(m)"
        case nil: "FIT"
        }
    }
}
