import Foundation
import Testing

/// Temp basals of a CareLink export (real rows of the v1.0.1 corpus files: `1.45,Rate,02:00:00` with
/// Raw-Type `ChangeTempBasal`, `50,Percent,01:30:00` with `ChangeTempBasalPercent`) land as Nightscout's
/// `Temp Basal` does (docs/formats.md): a rate with a duration is a `basal_rate` measurement over its span
/// (the one basal representation, BasalRates), so the day view draws it as a step; a percentage is an
/// insulin event `temp_basal` without an amount, the percent in metadata, never guessed into U/h.
@Suite struct CareLinkTempBasalTests {
    static let text = """
        Index,Date,Time,Timestamp,New Device Time,BG Reading (mg/dL),Linked BG Meter ID,Temp Basal Amount (U/h),\
        Temp Basal Type,Temp Basal Duration (hh:mm:ss),Bolus Type,Bolus Volume Selected (U),Bolus Volume Delivered (U)
        1,1/13/11,12:24:47,1/13/11 12:24:47,,,,1.45,Rate,02:00:00,,,
        2,1/14/11,08:38:33,1/14/11 08:38:33,,,,50,Percent,01:30:00,,,
        3,1/14/11,09:00:00,1/14/11 09:00:00,,,,,,,Normal,2.5,2.5

        """

    @Test func tempBasalRatesAreBasalRatesAndPercentagesEvents() throws {
        let imported = try ImportedExport(Self.text, file: "carelink.csv", timezone: "America/Los_Angeles", format: "medtronic-carelink")
        defer { imported.remove() }
        let db = imported.db
        let e = E2E.query(db, "SELECT subtype, coalesce(insulin_u, 'none'), coalesce(end - start, 0), coalesce(metadata, '') "
                              + "FROM events WHERE kind = 'insulin' ORDER BY start")
        #expect(E2E.query(db, "SELECT value, unit, end - start, metadata FROM measurements WHERE metric = 'basal_rate'")
                == [["1.45", "U/h", "7200", "{\"type\":\"Rate\"}"]])
        #expect(e == [["temp_basal", "none", "5400", "{\"percent\":50,\"type\":\"Percent\"}"],
                      ["bolus", "2.5", "0", ""]])
        let again = try E2E.run(imported.args)
        #expect(again.code == 0)
        #expect(E2E.scalar(db, "SELECT sum(new_rows) FROM imports") == "0")
    }
}
