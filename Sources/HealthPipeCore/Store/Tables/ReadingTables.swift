/// What imports write: the imports log, devices, readings and events, profiles.
extension StoreTables {
    public static let imports = TableDescription("imports", columns: [
        .id(),
        .required("path", .sortedText),
        .required("format", .text, default: "''"),
        .optional("size", .int64),
        .required("hash", .text, default: "''"),
        .required("first_started_at", .int64),
        .required("started_at", .int64),
        .optional("finished_at", .int64),
        .required("status", .text), // running | complete | interrupted | failed
        .required("runs", .int32, default: "1"),
        .required("rows_read", .int64, default: "0"),
        .required("measurements", .int64, default: "0"),
        .required("events", .int64, default: "0"),
        .required("rejected", .int64, default: "0"),
        .required("new_rows", .int64, default: "0"),
    ], unique: [["path"]])

    /// Each device once; records name it by `device_id`. The common fields are generated from `attributes`.
    public static let devices = TableDescription("devices", columns: [
        .id(),
        .required("attributes", .sortedText), // every field as the source wrote it, JSON object
        .json("name", field: "name", of: "attributes"),
        .json("manufacturer", field: "manufacturer", of: "attributes"),
        .json("model", field: "model", of: "attributes"),
        .json("hardware", field: "hardware", of: "attributes"),
        .json("software", field: "software", of: "attributes"),
    ], unique: [["attributes"]])

    /// Readings on their natural key: a corrected value replaces the row it corrects. SQLite keeps them
    /// in this table; PostgreSQL in `measurement_rows` under a series id, read through a `measurements`
    /// view of these columns.
    public static let measurements = TableDescription("measurements", columns: [
        .required("subject", .sortedText),
        .required("metric", .sortedText),
        .required("source", .sortedText)] + readingColumns,
        primaryKey: ["subject", "metric", "source", "start", "end"], in: [.sqlite], withoutRowID: true,
        notCompared: ["import_id", "line", "metadata", "device_id"])

    /// A reading's columns after the ones naming its series.
    static let readingColumns: [Column] = [
        .required("start", .int64),
        .required("end", .int64),
        .required("value", .double),
        .required("utc_offset", .int32),
        .required("unit", .text),
        .required("flags", .int32, default: "0"),
        .optional("band", .text),
        .optional("import_id", .int64),
        .optional("line", .int64),
        .optional("metadata", .text),
        .optional("device_id", .int64, references: "devices(id)"),
    ]

    /// PostgreSQL's (subject, metric, source) series, each once. Its readings name it by `id`, so their
    /// primary key compares one integer where it compared three texts: PostgreSQL's own COPY of a
    /// first import's readings takes about a third less time, an append's about half (BENCHMARKS.md).
    public static let measurementSeries = TableDescription("measurement_series", columns: [
        .id(),
        .required("subject", .sortedText),
        .required("metric", .sortedText),
        .required("source", .sortedText),
    ], unique: [["subject", "metric", "source"]], in: [.postgres])

    /// PostgreSQL's readings, by series (`measurement_series`); the `measurements` view joins the two.
    public static let measurementRows = TableDescription("measurement_rows", columns: [.required("series", .int64)] + readingColumns,
        primaryKey: ["series", "start", "end"], in: [.postgres], notCompared: ["import_id", "line", "metadata", "device_id"])

    /// Rows that version 7's narrower key folded away (SQLite only: nothing was lost).
    public static let supersededMeasurements = TableDescription(
        "superseded_measurements",
        columns: measurements.columns.map { Column(name: $0.name, type: $0.type, nullable: $0.nullable, defaultValue: $0.defaultValue) }
            + [.required("superseded_at", .int64)], // UTC epoch s of the migration that moved it here
        in: [.sqlite])

    /// Key columns first: SQLite 3.40's integrity_check misreads WITHOUT ROWID tables otherwise.
    public static let events = TableDescription("events", columns: [
        .required("subject", .sortedText),
        .required("kind", .sortedText),
        .required("subtype", .sortedText, default: "''"),
        .required("source", .sortedText),
        .required("start", .int64),
        .required("amount", .double, default: "0"),
        .required("end", .int64),
        .required("utc_offset", .int32),
        .optional("carbs_g", .double),
        .optional("protein_g", .double),
        .optional("fat_g", .double),
        .optional("insulin_u", .double),
        .optional("intensity", .text),
        .optional("note", .text),
        .required("flags", .int32, default: "0"),
        .optional("import_id", .int64),
        .optional("line", .int64),
        .optional("metadata", .text),
        .optional("device_id", .int64, references: "devices(id)"),
    ], primaryKey: ["subject", "kind", "subtype", "source", "start", "amount"],
       indexes: [IndexDescription("events_by_time", on: ["subject", "start"])], withoutRowID: true,
       notCompared: ["import_id", "line"])

    /// The `events` columns an `Event` is read back from, in table order (the stores' readers take them
    /// by position): all but the subject a read names, the key's `amount` (made from the values) and
    /// where the row came from.
    public static let eventFields = events.columns.map(\.name).filter {
        !["subject", "amount", "import_id", "line", "metadata", "device_id"].contains($0)
    }

    public static let subjectProfiles = TableDescription("subject_profiles", columns: [
        .required("subject", .sortedText),
        .required("source", .sortedText),
        .optional("date_of_birth", .text),
        .optional("biological_sex", .text),
        .optional("blood_type", .text),
        .optional("skin_type", .text),
        .required("attributes", .text), // every characteristic as written, JSON object
        .optional("import_id", .int64),
    ], primaryKey: ["subject", "source"], notCompared: ["import_id"])
}
