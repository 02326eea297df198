/// Apple Health's side files (workout routes, ECG recordings) and motion sessions: a parent row with
/// an id and its series of points or samples.
extension StoreTables {
    public static let workoutRoutes = TableDescription("workout_routes", columns: [
        .id(),
        .required("subject", .sortedText),
        .required("source", .sortedText),
        .required("start", .int64), // first point, UTC epoch seconds
        .required("name", .sortedText), // the GPX file's path in the export, or 'inline'
        .required("end", .int64),
        .required("utc_offset", .int32),
        .optional("workout_start", .int64), // start of its exercise event
        .required("points", .int32),
        .optional("device_id", .int64, references: "devices(id)"),
        .optional("import_id", .int64),
        .optional("line", .int64),
    ], unique: [["subject", "source", "start", "name"]],
       indexes: [IndexDescription("workout_routes_by_workout", on: ["subject", "source", "workout_start"])],
       notCompared: ["import_id", "line"])

    public static let routePoints = TableDescription("route_points", columns: [
        Column(name: "route_id", type: .int64, nullable: false, references: "workout_routes(id)"),
        .required("seq", .int32), // order in the route (points may share a time)
        .required("time_ms", .int64), // UTC epoch milliseconds
        .required("latitude", .double),
        .required("longitude", .double),
        .optional("elevation", .double), // m
        .optional("speed", .double), // m/s
        .optional("course", .double), // degrees
        .optional("horizontal_accuracy", .double), // m
        .optional("vertical_accuracy", .double), // m
    ], primaryKey: ["route_id", "seq"], withoutRowID: true)

    public static let electrocardiograms = TableDescription("electrocardiograms", columns: [
        .id(),
        .required("subject", .sortedText),
        .required("source", .sortedText),
        .required("start", .int64),
        .required("end", .int64),
        .required("utc_offset", .int32),
        .optional("classification", .text),
        .optional("symptoms", .text),
        .optional("average_heart_rate", .double), // count/min
        .required("sampling_hz", .double),
        .optional("lead", .text),
        .required("samples", .int32),
        .optional("metadata", .text), // the file's other header lines, JSON object
        .optional("device_id", .int64, references: "devices(id)"),
        .optional("import_id", .int64),
        .optional("line", .int64),
    ], unique: [["subject", "source", "start"]], notCompared: ["import_id", "line"])

    public static let ecgSamples = TableDescription("ecg_samples", columns: [
        Column(name: "ecg_id", type: .int64, nullable: false, references: "electrocardiograms(id)"),
        .required("seq", .int32), // sample number; its time is start + seq / sampling_hz
        .required("microvolts", .double),
    ], primaryKey: ["ecg_id", "seq"], withoutRowID: true)

    /// Toothbrushing sessions from the motion stream, with the seed's local date fields.
    public static let motionSessions = TableDescription("motion_sessions", columns: [
        .required("subject", .sortedText),
        .required("device", .sortedText),
        .required("start_ms", .int64), // UTC epoch milliseconds of the first sample
        .required("source", .sortedText),
        .required("end_ms", .int64),
        .required("start", .int64),
        .required("end", .int64),
        .required("utc_offset", .int32),
        .required("duration_s", .double),
        .required("active_s", .double),
        .required("average", .double), // mean movement, g (gravity removed)
        .required("accomplishment", .double), // 0–100 % of the goal
        .required("samples", .int64),
        .required("end_reason", .text), // target | idle | disconnect | end
        .required("year", .int32),
        .required("month", .int32),
        .required("day", .int32),
        .required("time", .text), // HH:MM:SS local
        .required("day_of_week", .int32), // 1 = Monday … 7 = Sunday
        .required("days_in_month", .int32),
        .optional("line", .int64),
        .optional("import_id", .int64),
    ], primaryKey: ["subject", "device", "start_ms"],
       indexes: [IndexDescription("motion_sessions_by_time", on: ["subject", "start"])], withoutRowID: true,
       // What follows from start_ms, end_ms and the offset, and where the session came from.
       notCompared: ["end", "duration_s", "active_s", "year", "month", "day", "time", "day_of_week", "days_in_month",
                     "line", "import_id"])
}
