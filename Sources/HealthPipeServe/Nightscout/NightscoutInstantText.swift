import JSONFormats

/// Seconds of a date text as the Nightscout mapping reads it (`NightscoutInstant`).
enum NightscoutInstantText {
    static func seconds(_ text: String) -> Int64? {
        NightscoutInstant.milliseconds(text).map { $0 >= 0 ? $0 / 1000 : -((-$0 + 999) / 1000) }
    }
}
