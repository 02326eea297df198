/// What the store keeps about a person besides their data: the zone they live in, over time.
extension StoreTables {
    /// Each person's zone history (`healthpipe person`, docs/schema.md): from `effective_from` on, the
    /// zone their typed times, "now" and reminders are read in, until the next row's instant. The
    /// earliest row also covers everything before it (a person's first zone is assumed for the past).
    public static let subjectZones = TableDescription("subject_zones", columns: [
        .required("subject", .sortedText),
        .required("effective_from", .int64), // UTC epoch seconds
        .required("zone", .text), // IANA name (Europe/Berlin) or ±HH:MM
        .required("set_at", .int64), // UTC epoch seconds of the change
    ], primaryKey: ["subject", "effective_from"], withoutRowID: true)
}
