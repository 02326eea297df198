/// The fields of HealthPipe's own NDJSON records (what the `ndjson` sink writes, docs/scale-out.md),
/// each a slot of one path table.
enum NDJSONRecordFields {
    static let names = ["type", "subject", "metric", "source", "start", "end", "utc_offset", "value", "unit", "flags", "band",
                        "device", "metadata", "file", "line", "kind", "subtype", "carbs_g", "protein_g", "fat_g", "insulin_u",
                        "intensity", "note", "day", "n", "min", "mean", "max", "sd", "bands", "hypo", "hyper", "exercise_min",
                        "illness", "stress", "model", "issued_at", "at", "threshold", "from", "to", "values", "agp",
                        "date_of_birth", "biological_sex", "blood_type", "skin_type", "attributes", "total", "total_sources"]
    static let table = JSONPathTable(names)
    static let type = 0, subject = 1, metric = 2, source = 3, start = 4, end = 5, utcOffset = 6, value = 7, unit = 8,
               flags = 9, band = 10, device = 11, metadata = 12, file = 13, line = 14, kind = 15, subtype = 16,
               carbs = 17, protein = 18, fat = 19, insulin = 20, intensity = 21, note = 22, day = 23, n = 24,
               min = 25, mean = 26, max = 27, sd = 28, bands = 29, hypo = 30, hyper = 31, exercise = 32,
               illness = 33, stress = 34, model = 35, issuedAt = 36, at = 37, threshold = 38, from = 39, to = 40,
               values = 41, agp = 42, dateOfBirth = 43, biologicalSex = 44, bloodType = 45, skinType = 46,
               attributes = 47, total = 48, totalSources = 49

    /// The `type` values, as the sink writes them.
    static let types = ["measurement", "event", "daily", "metrics", "forecast", "alert", "profile"]
}
