import HealthPipeCore

/// Registry entry for the LibreView (FreeStyle Libre) source.
public let libreViewComponent = ComponentDescriptor(
    name: LibreViewSource.format, role: .source, family: "CSVFormats",
    summary: """
        FreeStyle Libre CSV export from LibreView and the LibreLink app (Libre 1/2/3, Libre Pro; mg/dL or mmol/L; \
        headers in English, German, French, Spanish, Dutch, Traditional Chinese and the older desktop spelling, any other \
        language read by LibreView's fixed column order; `,` or `;`; after a 0- to 2-line preamble). Historic and scan \
        readings become glucose measurements (LO/HI kept at 40/500 mg/dL with a flag), strip readings blood_glucose, \
        ketones ketone; insulin, food and note rows become events (entries sharing a minute merged, every text kept). \
        Day/month order is inferred over the whole file unless date_order is set. Timestamps are local time: a zone is required.
        """,
    options: CSVCommonOptions.docs + [
        OptionDoc("date_order", "auto | dmy | mdy", default: "auto",
                  "day/month order of Device Timestamp; auto decides it over the whole file (a first field above 12 "
                  + "means dmy, a second above 12 mdy) and fails when the file cannot tell; a set order is checked "
                  + "against the file and also decides files whose dates contradict each other"),
    ],
    produces: [.measurements, .events],
    detect: { LibreViewColumns.detectScore($0) },
    // Words an export of this kind shows near its start: "unknown format" names the nearest format by them.
    signature: ["device", "serial number", "device timestamp", "record type", "historic glucose", "scan glucose"],
    build: { b in
        LibreViewSource(options: try CSVCommonOptions.read(b), dateOrder: try b.value("date_order", as: DateOrderOption.self)?.order)
    })

/// `date_order`: auto (nil: decided over the whole file), dmy or mdy.
enum DateOrderOption: String, Decodable, CaseIterable {
    case auto, dmy, mdy

    var order: DateOrder? { self == .auto ? nil : DateOrder(rawValue: rawValue) }

    init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let v = DateOrderOption(rawValue: text.lowercased()) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "date_order must be auto, dmy or mdy, not '\(text)'"))
        }
        self = v
    }
}
