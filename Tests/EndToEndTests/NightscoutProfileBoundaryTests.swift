import Foundation
import Testing

/// A Nightscout profile whose basal schedule holds a time that is no time of day (fuzzing found a
/// `timeAsSeconds` beyond Int trapping the import): that profile is quarantined with the entry named,
/// the good profile beside it still lands.
@Suite struct NightscoutProfileBoundaryTests {
    static func profile(id: String, mills: Int64, basalTime: String) -> String {
        """
        {"_id": "\(id)", "defaultProfile": "default", "mills": \(mills), "startDate": "2026-04-05T08:33:12.213Z",
         "store": {"default": {"units": "mmol", "timezone": "Europe/Moscow", "dia": 6,
           "basal": [{"time": "00:00", "timeAsSeconds": 0, "value": 1}, \(basalTime)]}}}
        """
    }

    @Test(arguments: [
        (#"{"value": 1.2, "time": "09:00", "timeAsSeconds": 1e80}"#, "basal timeAsSeconds 1e+80 is not"),
        (#"{"value": 1.2, "time": "09:00", "timeAsSeconds": 86400}"#, "basal timeAsSeconds 86400 is not"),
        (#"{"value": 1.2, "time": "999999999999999999:00"}"#, "is not a time of day such as 06:30"),
    ])
    func aBasalTimeThatIsNoTimeOfDayQuarantinesItsProfile(entry: String, reason: String) throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite"), q = dir.appendingPathComponent("q.ndjson")
        let file = dir.appendingPathComponent("profile.json")
        try E2E.write("[" + Self.profile(id: "bad", mills: 1_775_377_992_000, basalTime: entry) + ",\n"
                      + Self.profile(id: "good", mills: 1_775_377_685_000, basalTime: #"{"value": 1.5, "time": "06:00", "timeAsSeconds": 21600}"#)
                      + "]", to: file)
        let r = try E2E.run(["import", file.path, "--db", db.path, "--format", "nightscout", "--quarantine", q.path])
        #expect(r.code == 3, "\(r.stderr)")
        let quarantine = try String(contentsOf: q, encoding: .utf8)
        #expect(quarantine.contains(reason), "\(quarantine)")
        #expect(quarantine.contains(#"\"_id\": \"bad\""#) || quarantine.contains(#""_id": "bad""#) || quarantine.contains("bad"))
        #expect(E2E.count(db, "subject_profiles", "source = 'nightscout'") == 1)
    }
}
