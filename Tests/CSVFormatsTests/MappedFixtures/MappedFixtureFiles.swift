import Foundation

/// Small fixture files for the mapped-CSV tests, kept as Swift text (byte for byte, CRLF
/// included) because loose files in a test target are "unhandled resources" warnings unless
/// Package.swift declares them. `MappedSupport.fixture(_:)` writes them out on first use.
enum MappedFixtureFiles {
    static let files: [String: String] = [
        // Nightscout legacy entries.tsv (reference/formats.md §6.4): tab-separated, US local time,
        // sgv 5 = NOT COMPUTABLE (a Dexcom error code, not a reading).
        "nightscout_entries_legacy.tsv":
            "07/19/2014 10:49:15 AM\t1405792155000\t178\tFlat\tdexcom\n"
            + "07/19/2014 10:44:15 AM\t1405791855000\t5\tNOT COMPUTABLE\tdexcom\n"
            + "07/19/2014 10:39:15 AM\t1405791555000\t181\tFlat\tdexcom\n",
        // A European meter export: two preamble lines, `;` cells, decimal commas, mmol/L, CRLF,
        // a non-numeric cell (line 6), empty cells, a blank line, and a time in the 2024 DST gap.
        "meter_semicolon_mmol.csv":
            "Export;Meter X\r\n"
            + "Patient;Jane\r\n"
            + "Date;Time;Glucose (mmol/L);HR (bpm/10);Carbs\r\n"
            + "05.03.2024;07:30;5,5;7,2;\r\n"
            + "05.03.2024;08:00;10,0;;45\r\n"
            + "05.03.2024;08:30;abc;7,0;\r\n"
            + "05.03.2024;09:00;;6,5;0\r\n"
            + "\r\n"
            + "31.03.2024;02:30;6,1;;\r\n",
    ]
}
