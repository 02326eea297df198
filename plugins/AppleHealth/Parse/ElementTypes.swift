import HealthPipeCore

/// What the run report counts an export's elements under (docs/reliability.md, "Every row accounted
/// for"): a Record or Correlation under its `type`, every other top-level element under its name,
/// a refused route point of a workout under `WorkoutRoute Location`. Each ends stored, skipped or
/// quarantined, counted in `ExportHandler.tally`.
enum ElementTypes {
    /// The tally's fixed slots; types (and other element names) get theirs on first sight.
    static let fixed = ["ExportDate", "Me", "Workout", "ActivitySummary", "WorkoutRoute Location"]
    static let exportDate = 0, me = 1, workout = 2, activitySummary = 3, routeLocation = 4

    /// Elements of Apple's DTD whose data HealthPipe does not model (health records, hearing tests,
    /// glasses prescriptions): skipped, counted, and named in a warning.
    static let notModelled: Set<String> = ["ClinicalRecord", "Audiogram", "VisionPrescription"]

    /// HealthKit's own namespaces of sample types. A type in one of them is known whether or not the
    /// metric catalogue lists it: every HealthKit quantity and category is stored by one documented
    /// rule (docs/apple-health.md: its name in snake case, the value in the unit the file writes), as
    /// Apple adds types every year. A type outside them (another app's identifier, a typo) is still
    /// stored so, but counted as unknown: warned about, exit status 3.
    static let healthKitPrefixes = ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier", "HKDataType"]

    static func isHealthKit(_ identifier: String) -> Bool {
        healthKitPrefixes.contains { identifier.hasPrefix($0) && identifier.utf8.count > $0.utf8.count }
    }
}
