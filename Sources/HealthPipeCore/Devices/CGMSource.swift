/// The canonical source of a CGM or meter reading: the sensor maker's family (`Dexcom`,
/// `FreeStyle Libre`, `Medtronic`, `Eversense`), whatever app, uploader or export carried it.
/// One person wears one sensor of a family at a time, so (subject, metric, family, start) names one
/// physical reading: the same reading in a Clarity export, a Nightscout dump and a Tidepool export
/// lands on one row. The model and serial/transmitter go into the record's device, not its key.
public enum CGMSource {
    public static let dexcom = "Dexcom"
    public static let libre = "FreeStyle Libre"
    public static let medtronic = "Medtronic"
    public static let eversense = "Eversense"

    /// The family named anywhere in a device text (`android G6`, `Dexcom G6 Mobile App`,
    /// `xDrip-DexcomG6`, `share2`, `DexG6MobRec_SM123`, `AbbottFreeStyleLibre3_…`, `MMT-1780`);
    /// nil when the text names none.
    public static func family(of text: some StringProtocol) -> String? {
        let t = text.lowercased()
        if t.contains("dex") || t.hasPrefix("share") || t.contains("stelo") || model(ofDexcom: t) != nil { return dexcom }
        if t.contains("libre") || t.contains("abbott") { return libre }
        if t.contains("medtronic") || t.contains("minimed") || t.contains("guardian") || t.contains("enlite")
            || t.hasPrefix("mmt-") { return medtronic }
        if t.contains("eversense") || t.contains("senseonics") { return eversense }
        return nil
    }

    /// The model a device text names (`G6`, `G7`, `ONE`, `Libre 3`…), for the device record.
    public static func model(of text: some StringProtocol) -> String? {
        let t = text.lowercased()
        if let g = model(ofDexcom: t) { return g }
        if t.contains("dexcom one") { return "ONE" }
        if t.contains("stelo") { return "Stelo" }
        for n in ["3", "2", "1"] where t.contains("libre " + n) || t.contains("libre" + n) { return "Libre " + n }
        return nil
    }

    /// `G4`…`G7` as a token of its own or after `dex`/`dexcom` (`xDrip-DexcomG6`, `DexG6MobRec`).
    private static func model(ofDexcom t: String) -> String? {
        let bytes = Array(t.utf8)
        guard bytes.count >= 2 else { return nil }
        for i in 0..<(bytes.count - 1) where bytes[i] == UInt8(ascii: "g") {
            let d = bytes[i + 1]
            guard d >= UInt8(ascii: "4"), d <= UInt8(ascii: "7") else { continue }
            let after = i + 2 < bytes.count ? bytes[i + 2] : 0x20
            guard !(after >= 0x30 && after <= 0x39) else { continue }
            let before = i > 0 ? bytes[i - 1] : 0x20
            let letterBefore = (before >= 0x61 && before <= 0x7A)
            if !letterBefore || ByteSearch.endsWith(bytes[..<i], "dex") || ByteSearch.endsWith(bytes[..<i], "dexcom") {
                return "G" + String(UnicodeScalar(d))
            }
        }
        return nil
    }

    /// The device symbol for a CGM reading: maker, model and serial/transmitter as the export
    /// says them, plus the app or uploader that carried it.
    public static func device(family: String, model: String?, serial: String?, uploader: String?) -> Symbol {
        var fields: [(key: String, value: String)] = [("manufacturer", family == libre ? "Abbott" : family)]
        if let model, !model.isEmpty { fields.append(("model", model)) }
        if let serial, !serial.isEmpty { fields.append(("serial", serial)) }
        if let uploader, !uploader.isEmpty { fields.append(("uploader", uploader)) }
        return DeviceText.symbol(fields)
    }
}
