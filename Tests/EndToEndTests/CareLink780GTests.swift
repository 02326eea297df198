import Foundation
import Testing

/// The CareLink web export of a MiniMed 780G (layout of the real export in Tests/Fixtures/real/carelink,
/// `carelink-en-780g-mmol.csv`): a BOM, a `Last Name,First Name,…` preamble, then a Pump section, an
/// "Aggregated Auto Insulin Data" section and a Sensor section, each under a marker line and the same
/// 53-column header, CRLF. Three things in it are not what they look like.
@Suite struct CareLink780GTests {
    static let header = "Index,Date,Time,New Device Time,BG Source,BG Reading (mmol/L),Linked BG Meter ID,Basal Rate (U/h),"
        + "Temp Basal Amount,Temp Basal Type,Temp Basal Duration (h:mm:ss),Bolus Type,Bolus Volume Selected (U),"
        + "Bolus Volume Delivered (U),Bolus Duration (h:mm:ss),Prime Type,Prime Volume Delivered (U),"
        + "Estimated Reservoir Volume after Fill (U),Alert,User Cleared Alerts,Suspend,Rewind,BWZ Estimate (U),"
        + "BWZ Target High BG (mmol/L),BWZ Target Low BG (mmol/L),BWZ Carb Ratio (g/U),BWZ Insulin Sensitivity (mmol/L/U),"
        + "BWZ Carb Input (grams),BWZ BG/SG Input (mmol/L),BWZ Correction Estimate (U),BWZ Food Estimate (U),"
        + "BWZ Active Insulin (U),BWZ Status,Sensor Calibration BG (mmol/L),Sensor Glucose (mmol/L),ISIG Value,Event Marker,"
        + "Bolus Number,Bolus Cancellation Reason,BWZ Unabsorbed Insulin Total (U),Final Bolus Estimate,Scroll Step Size,"
        + "Insulin Action Curve Time,Sensor Calibration Rejected Reason,Preset Bolus,Bolus Source,BLE Network Device,"
        + "Device Update Event,Network Device Associated Reason,Network Device Disassociated Reason,"
        + "Network Device Disconnected Reason,Sensor Exception,Preset Temp Basal Name"
    static let names = header.split(separator: ",").map(String.init)

    static func row(_ index: Int, _ date: String, _ time: String, _ values: [String: String]) -> String {
        names.map { n in
            switch n {
            case "Index": return "\(index).00000"
            case "Date": return date
            case "Time": return time
            default: return values[n] ?? ""
            }
        }.joined(separator: ",")
    }

    static var text: String {
        let lines = [
            "\u{FEFF}Last Name,First Name,Patient ID,System ID,Start Date,End Date,Device,MiniMed 780G MMT-1885,Hardware Version,A2.01,Firmware Version,8.12.2",
            "\"Sample\",\"Patient\",\"\",\"\",\"1/03/2024 00:00:00\",\"2/03/2024 00:00:00\",\"Serial Number\",NG1234567H,Software Version,",
            "Patient DOB,,,,,,CGM,Guardian™ 4 Sensor",
            "Device data shown may exceed selected date range.",
            "",
            "-------,MiniMed 780G MMT-1885,Pump,NG1234567H,------- ",
            header,
            row(0, "2024/03/02", "08:10:05", ["Bolus Type": "Normal", "Bolus Volume Selected (U)": "2.5",
                                              "Bolus Volume Delivered (U)": "2.5", "Bolus Number": "12",
                                              "Bolus Source": "CLOSED_LOOP_BG_CORRECTION_AND_FOOD_BOLUS"]),
            row(1, "2024/03/02", "08:08:40", ["Bolus Type": "Normal", "Bolus Volume Selected (U)": "2.5", "Bolus Number": "12",
                                              "Bolus Source": "CLOSED_LOOP_BG_CORRECTION_AND_FOOD_BOLUS"]),
            row(2, "2024/03/02", "08:08:39", ["BWZ Estimate (U)": "2.5", "BWZ Carb Ratio (g/U)": "10.00", "BWZ Carb Input (grams)": "25.00",
                                              "BWZ BG/SG Input (mmol/L)": "6.10", "BWZ Food Estimate (U)": "2.5", "BWZ Status": "Delivered"]),
            // One finger stick, logged three times: entered, sent to the sensor, then as the calibration.
            row(3, "2024/03/02", "07:54:00", ["Sensor Calibration BG (mmol/L)": "5.50"]),
            row(4, "2024/03/02", "07:53:35", ["BG Source": "BG_SENT_FOR_CALIB", "BG Reading (mmol/L)": "5.50"]),
            row(5, "2024/03/02", "07:53:32", ["BG Source": "ENTERED_IN_BG_ENTRY", "BG Reading (mmol/L)": "5.50"]),
            row(6, "2024/03/02", "00:00:00", ["Basal Rate (U/h)": "0.8"]),
            row(7, "2024/03/01", "00:00:00", [:]),
            "",
            "-------,MiniMed 780G MMT-1885,Pump,NG1234567H,Aggregated Auto Insulin Data ",
            header,
            row(8, "2024/03/02", "00:00:00", ["Bolus Type": "Normal", "Bolus Volume Selected (U)": "21.350",
                                              "Bolus Volume Delivered (U)": "21.300", "Bolus Source": "CLOSED_LOOP_AUTO_INSULIN"]),
            row(9, "2024/03/01", "00:00:00", ["Bolus Type": "Normal", "Bolus Volume Selected (U)": "24.125",
                                              "Bolus Volume Delivered (U)": "24.125", "Bolus Source": "CLOSED_LOOP_AUTO_INSULIN"]),
            "",
            "-------,MiniMed 780G MMT-1885,Sensor,NG1234567H,------- ",
            header,
            row(10, "2024/03/02", "08:10:00", ["Sensor Glucose (mmol/L)": "6.20", "ISIG Value": "21.40"]),
            row(11, "2024/03/02", "08:05:00", ["Sensor Glucose (mmol/L)": "6.00", "ISIG Value": "20.85"]),
            row(12, "2024/03/02", "00:00:00", ["Event Marker": "Start of the day"]),
            row(13, "2024/03/02", "00:00:00", ["Event Marker": "End of the day"]),
            "",
        ]
        return lines.joined(separator: "\r\n")
    }

    /// Real 780G exports: the daily auto-insulin totals were imported as 21 U and 24 U boluses at midnight,
    /// a finger stick sent for calibration as a second meter reading, and the export's day boundaries as notes.
    @Test func autoInsulinDaysCalibrationCopiesAndDayMarkers() throws {
        let imported = try ImportedExport(Self.text, file: "780g.csv", timezone: "Australia/Sydney", format: "medtronic-carelink")
        defer { imported.remove() }
        let db = imported.db
        // The day's auto insulin: basal insulin over the local day, not a bolus.
        let insulin = E2E.query(db, "SELECT subtype, count(*), round(sum(insulin_u), 3), coalesce(min(end - start), 0), "
                                    + "coalesce(max(end - start), 0) FROM events WHERE kind = 'insulin' GROUP BY subtype ORDER BY subtype")
        #expect(insulin == [["basal", "2", "45.425", "86400", "86400"], ["bolus", "1", "2.5", "0", "0"]])
        // One finger stick: the entered reading and the calibration; the copy sent to the sensor is not a third.
        #expect(E2E.query(db, "SELECT count(*), sum(value) FROM measurements WHERE metric = 'blood_glucose'") == [["2", "198.0"]])
        #expect(E2E.count(db, "events", "kind = 'note'") == 0)
        #expect(E2E.query(db, "SELECT count(*), sum(value) FROM measurements WHERE metric = 'glucose'") == [["2", "220.0"]])
        #expect(E2E.count(db, "events", "kind = 'meal'") == 1)
        let again = try E2E.run(imported.args)
        #expect(again.code == 0)
        #expect(E2E.scalar(db, "SELECT sum(new_rows) FROM imports") == "0")
    }
}
