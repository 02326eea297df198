/// The personal health log (SQLite only): favourites, health reports, manual entries and the user
/// state of `healthpipe alerts`, none of which re-aggregation touches.
extension StoreTables {
    public static let favourites = TableDescription("favourites", columns: [
        .required("subject", .sortedText),
        .required("day", .sortedText),
        .optional("note", .text),
        .required("created_at", .int64),
    ], primaryKey: ["subject", "day"])

    /// One report per subject and instant; its values are also measurements (source `report`).
    public static let reports = TableDescription("reports", columns: [
        .required("subject", .sortedText),
        .required("id", .sortedText),
        .required("start", .int64), // UTC epoch seconds
        .required("utc_offset", .int32),
        .optional("note", .text),
        .optional("import_id", .int64), // the file it came from; NULL when typed
        .optional("line", .int64),
        .required("updated_at", .int64), // UTC epoch seconds of the last change
    ], primaryKey: ["subject", "id"], indexes: [IndexDescription("reports_by_time", on: ["subject", "start"], unique: true)],
       in: [.sqlite], withoutRowID: true)

    public static let reportValues = TableDescription("report_values", columns: [
        .required("subject", .sortedText),
        .required("report_id", .sortedText),
        .required("metric", .sortedText),
        .required("value", .double), // canonical unit, as in measurements
        .required("unit", .text),
        .required("importance", .int32, check: "importance BETWEEN 1 AND 5"),
    ], primaryKey: ["subject", "report_id", "metric"], in: [.sqlite], withoutRowID: true)

    /// Entered by hand, each with the natural key of the events row it owns (source `manual`).
    public static let manualEntries = TableDescription("manual_entries", columns: [
        .required("subject", .sortedText),
        .required("id", .sortedText),
        .required("kind", .sortedText),
        .required("subtype", .sortedText),
        .required("source", .sortedText),
        .required("start", .int64),
        .required("amount", .double),
        .required("updated_at", .int64),
    ], primaryKey: ["subject", "id"],
       indexes: [IndexDescription("manual_entries_by_event", on: ["subject", "kind", "subtype", "source", "start", "amount"], unique: true)],
       in: [.sqlite], withoutRowID: true)

    public static let reminderSnoozes = TableDescription("reminder_snoozes", columns: [
        .required("subject", .sortedText),
        .required("day", .sortedText), // the local day whose reminder is postponed
        .required("until", .int64), // UTC epoch seconds
        .required("created_at", .int64),
    ], primaryKey: ["subject", "day"], in: [.sqlite], withoutRowID: true)

    public static let alertNotices = TableDescription("alert_notices", columns: [
        .required("subject", .sortedText),
        .required("kind", .sortedText),
        .required("metric", .sortedText),
        .required("start", .int64), // the alert's start (a reminder: its due time without snooze)
        .required("due_at", .int64), // the due time it was announced for
        .required("notified_at", .int64),
    ], primaryKey: ["subject", "kind", "metric", "start"], in: [.sqlite], withoutRowID: true)

    /// Rows deleted by hand (a Nightscout client's DELETE): what each was, so an import that brings
    /// the same row again leaves it deleted (`import --restore-deleted` brings it back), and API v3's
    /// history can tell clients it is gone. Readings name their row by (`name` = metric, `source`,
    /// `start`, `end`), events by (`name` = kind, `subtype`, `source`, `start`, `amount`).
    public static let deletedRows = TableDescription("deleted_rows", columns: [
        .required("subject", .sortedText),
        .required("row_table", .sortedText), // measurements or events
        .required("name", .sortedText), // the reading's metric, the event's kind
        .required("subtype", .sortedText), // the event's subtype; '' for a reading
        .required("source", .sortedText),
        .required("start", .int64), // UTC epoch seconds
        .required("end", .int64),
        .required("amount", .double), // the event's amount; 0 for a reading
        .required("utc_offset", .int32),
        .optional("value", .double), // the reading's value
        .optional("metadata", .text), // the row's metadata, as it was
        .required("deleted_at", .int64), // UTC epoch seconds
    ], primaryKey: ["subject", "row_table", "name", "subtype", "source", "start", "end", "amount"], in: [.sqlite], withoutRowID: true)
}
