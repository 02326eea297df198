/// The YAML shape of a mapped-CSV adapter file, exactly as written. Every field is optional
/// here so that a misspelt required key is reported as an unknown key with the nearest valid
/// name (the strict decoder checks keys after decoding); `MappedSpecCompiler` then enforces
/// what is required and turns the text into a `MappedAdapter`.
///
/// ```yaml
/// name: simglucose            # required; the source type name: [a-z0-9][a-z0-9._-]*
/// description: …              # required; shown by `healthpipe plugins`
/// detect:                     # required; content detection (score 60, 0 when it fails)
///   header_contains: [a, b]   # header cells that must all be present (case-insensitive);
///                             #   required with a header, refused with header: none
///   within_lines: 20          # the section start and the header lie in the first N lines
///   field_count: 5            # optional: data rows have exactly N cells (detection only)
///   data_rows: 3              # detection parses the first N data rows (0: header only;
///                             #   headerless adapters need at least 1)
/// header: auto                # auto (found by header_contains) | none | a 1-based line number
/// section:                    # optional: read only one section of a multi-section file
///   begin: "# CGM ENTRIES"    #   rows start after the line beginning with this
///   end: "#"                  #   and stop at the next line beginning with this (default "#")
/// separator: auto             # "," ";" "|" "\t" (or tab) | auto (judged from the header line)
/// decimal_comma: false       # true | false | auto (either mark)
/// timestamp:                  # required: column + format, or date_column + date_format
///   column: timestamp         #   (+ time_column + time_format: the cells are joined by a space)
///   format: "%Y-%m-%dT%H:%M:%S"   # TimestampPattern tokens, or epoch / epoch_ms
///   end_column: wake          #   optional: where the row's span ends (same formats, same time cell)
/// timezone: UTC               # default zone for naive times; the stage's or run's zone wins
/// subject_column: patient     # optional; empty cells fall back to the run's subject
/// filter: { column: Type, values: [sgv] }   # optional: other rows are skipped, not rejected
/// source: simglucose          # source name (default: the adapter name)
/// source_column: device       # optional; empty cells fall back to `source`
/// note_column: Comment        # optional: the row's free text (a report's note, else its events'
///                             #   note, or a note event on a row with no event)
/// note_columns: [Meal Descriptions, Note]   # several free-text columns, joined with " — "
///                             #   formats / date_formats / time_formats: lists of alternatives
///                             #   `%b` is a month name or abbreviation (Aug, Mär, déc, Okt …)
/// columns:                    # required: header names, or 1-based positions when header: none
///                             #   a name may list alternatives: "Date|Dato|Datum" (any language)
///                             #   optional: true — the column may be missing from a file
///                             #   high / low: { text: [HI], value: 600 } — a meter's out-of-range word
///                             #   from: value — the column read when the key is a label
///                             #   when: [GlucoseMeasurement] — only rows of these types (row_type_column)
///                             #   each_row: true — an event with no amount for each such row
/// row_type_column: class      # optional: the column naming each row's type (see when:)
/// skip_types: [Settings]      # row types that are not data: counted as skipped; any type neither
///                             #   an entry's when: nor this list names is quarantined as unknown
///                             #   unit_column: Unit — a glucose entry's unit per row (mg/dL or mmol/L)
///   cgm_mgdl: { metric: glucose, unit: mg/dL, min: 39, max: 600 }
///   carbs_g: { event: meal, field: carbs, skip_zero: true, duration_min: 5 }
///   temp: { metric: body_temperature, unit: degF, importance_column: temp_importance }
///   pain: { metric: pain, unit: score, importance: 4 }
/// ```
///
/// Measurement columns with an importance (`importance: 1–5`, or `importance_column:` naming the
/// column that holds it) make each row a health report (docs/reports.md): their values are
/// checked and converted as typed reports are, and a row needs at least two of them.
///
/// A column is either `metric:` + `unit:` (a measurement; glucose must be mg/dL or mmol/L and is
/// stored in mg/dL, mmol/L converted and rounded) or `event:` (meal, exercise, insulin, episode,
/// note, alert, device) with `field:` (carbs, protein, fat, insulin, duration in minutes;
/// defaults by kind), `subtype:` and `duration_min:` (the event's length). Both take `scale:`
/// (value × scale), `min:` / `max:` (valid range of the value as written: a row outside it is
/// rejected with the reason) and `skip_zero:`. An empty cell skips that record only; a cell that
/// is not a number rejects the row. Timestamp, subject, source and filter columns must be listed
/// in `detect.header_contains`, so a typo is caught when the adapter loads.
struct MappedSpec: Decodable {
    var name: String?
    var description: String?
    var detect: DetectSpec?
    var header: String?
    var section: SectionSpec?
    var separator: String?
    var decimal_comma: DecimalMarkSpec?
    var timestamp: TimestampSpec?
    var timezone: String?
    var subject_column: String?
    var filter: FilterSpec?
    var source: String?
    var source_column: String?
    var note_column: String?
    /// The column whose value says what a row is (`class`, `Event`): entries with `when:` apply
    /// only to rows of those types; rows of a type no entry lists are skipped, not rejected.
    var row_type_column: String?
    /// Row types that are not data (settings, modes, sessions): counted as skipped with their type.
    /// A type neither an entry's `when:` nor this list names is unknown: quarantined and counted.
    var skip_types: [String]?
    /// Words a value cell writes for "no value" (Oura's `None`): read as an empty cell.
    var empty_values: [String]?
    /// Several free-text columns (meal description, note …), joined in this order.
    var note_columns: [String]?
    var columns: ColumnsSpec?

    struct DetectSpec: Decodable {
        var header_contains: [String]?
        var within_lines: Int?
        var field_count: Int?
        var data_rows: Int?
    }

    struct SectionSpec: Decodable {
        var begin: String?
        var end: String?
    }

    struct FilterSpec: Decodable {
        var column: String?
        var values: [String]?
    }

    struct TimestampSpec: Decodable {
        var column: String?
        var format: String?
        var date_column: String?
        var date_format: String?
        var time_column: String?
        var time_format: String?
        /// Read when `column`'s (or `date_column`'s) cell is empty (e.g. a note's `updated_at`).
        var fallback_column: String?
        /// Where the row's span ends (a sleep's wake-up): read with the timestamp's formats and, with
        /// `date_column`, the same time cell (`MappedAdapter.timeEnd`).
        var end_column: String?
        /// Alternatives, tried in order (a file uses one; several languages' files differ).
        var formats: [String]?
        var date_formats: [String]?
        var time_formats: [String]?
    }

    struct ColumnSpec: Decodable {
        var metric: String?
        var unit: String?
        var event: String?
        var field: String?
        var subtype: String?
        var scale: Double?
        var min: Double?
        var max: Double?
        var skip_zero: Bool?
        var duration_min: Double?
        var importance: Int?
        var importance_column: String?
        /// The column may be absent from a file's header (another language, unit or app version).
        var optional: Bool?
        /// A word the device writes for a reading beyond its range (`HI`, `LO`): stored as `value`
        /// with the above/below-range flag instead of rejecting the row.
        var high: LimitSpec?
        var low: LimitSpec?
        /// The header column this entry reads when the key is only a label (several entries can
        /// read one column for different row types).
        var from: String?
        /// Row types (values of `row_type_column`) this entry applies to; all rows when absent.
        var when: [String]?
        /// An event with no amount, one per row the entry applies to (a logged meal, a note).
        var each_row: Bool?
        /// The column naming each row's glucose unit (mg/dL or mmol/L); `unit:` is then the unit of a
        /// row whose unit cell is empty (none: such a row is rejected).
        var unit_column: String?
    }

    struct LimitSpec: Decodable {
        var text: [String]?
        var value: Double?
    }
}

/// `decimal_comma: true | false | auto` (auto: `5,4` and `5.4` both read as 5.4, for an adapter
/// whose languages differ in their decimal mark).
enum DecimalMarkSpec: Decodable {
    case point, comma, auto

    init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self).lowercased()
        switch text {
        case "true", "yes": self = .comma
        case "false", "no": self = .point
        case "auto": self = .auto
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "decimal_comma is true or false (or auto: either mark), not '\(text)'"))
        }
    }
}

/// `columns:` keeps its entries in file order (a dictionary would not), so records come out in
/// the order the adapter lists them and errors point at the right entry.
struct ColumnsSpec: Decodable {
    var entries: [(key: String, spec: MappedSpec.ColumnSpec)] = []

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { stringValue = String(intValue) }
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        for key in c.allKeys {
            entries.append((key.stringValue, try c.decode(MappedSpec.ColumnSpec.self, forKey: key)))
        }
    }
}
