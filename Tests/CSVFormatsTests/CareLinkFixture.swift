/// Builds small CareLink files for tests: metadata, section marker lines, headers from formats.md
/// §5.2 (or variants of it) and rows given by column name, with `;` and decimal commas by default.
struct CareLinkFixture {
    static let guardianHeader = ["Index", "Date", "Time", "New Device Time", "BG Reading (mg/dL)", "Linked BG Meter ID",
        "Basal Rate (U/h)", "Temp Basal Amount", "Temp Basal Type", "Temp Basal Duration (h:mm:ss)", "Bolus Type",
        "Bolus Volume Selected (U)", "Bolus Volume Delivered (U)", "Bolus Duration (h:mm:ss)", "Prime Type",
        "Prime Volume Delivered (U)", "Alarm", "Suspend", "Rewind", "BWZ Estimate (U)", "BWZ Target High BG (mg/dL)",
        "BWZ Target Low BG (mg/dL)", "BWZ Carb Ratio (g/U)", "BWZ Insulin Sensitivity (mg/dL/U)", "BWZ Carb Input (grams)",
        "BWZ BG Input (mg/dL)", "BWZ Correction Estimate (U)", "BWZ Food Estimate (U)", "BWZ Active Insulin (U)", "BWZ Status",
        "Sensor Calibration BG (mg/dL)", "Sensor Glucose (mg/dL)", "ISIG Value", "Event Marker", "Bolus Number",
        "Bolus Cancellation Reason", "BWZ Unabsorbed Insulin Total (U)", "Final Bolus Estimate", "Scroll Step Size",
        "Insulin Action Curve Time", "Sensor Calibration Rejected Reason", "Preset Bolus", "Bolus Source",
        "Network Device Associated Reason", "Network Device Disassociated Reason", "Network Device Disconnected Reason",
        "Sensor Exception", "Preset Temp Basal Name"]

    /// A MiniMed-pump-like mmol/L header: `Alert` for `Alarm`, an inserted `BG Source`, so positions differ.
    static let pumpMmolHeader: [String] = {
        var h = guardianHeader.map { $0 == "Alarm" ? "Alert" : $0.replacingOccurrences(of: "(mg/dL)", with: "(mmol/L)") }
        h.insert("BG Source", at: 4)
        return h
    }()

    var lines: [String] = []
    var header: [String] = []
    var delimiter = ";"
    private var index = 0

    mutating func metadata(device: String) {
        lines += ["Last Name;First Name;Patient ID;System ID;Start Date;End Date;Device;\(device)",
                  "\"Test\";\"Patient\";\"\";\"\";\"01.05.2021 00:00:00\";\"25.07.2021 23:59:59\";\"Serial Number\";NG1234567H",
                  "", "Device data shown may exceed selected date range.", ""]
    }

    mutating func section(_ device: String, _ kind: String, header: [String]) {
        lines.append("-------;\(device);\(kind);NG1234567H;------- ")
        self.header = header
        lines.append(header.joined(separator: delimiter))
    }

    mutating func useHeader(_ header: [String]) {
        self.header = header
        lines.append(header.joined(separator: delimiter))
    }

    /// A data row; `values` maps column names to raw cell text.
    mutating func row(_ date: String, _ time: String, _ values: [String: String] = [:]) {
        var cells = Array(repeating: "", count: header.count)
        cells[0] = delimiter == ";" ? "\(index),00000" : "\(index)"
        cells[1] = date
        cells[2] = time
        for (name, v) in values { cells[header.firstIndex(of: name)!] = v }
        lines.append(cells.joined(separator: delimiter))
        index += 1
    }

    var text: String { lines.joined(separator: "\r\n") + "\r\n" }
}
