/// The source name of an All Data stream: Google's data source id reordered so the stream's own name
/// comes first — `derived:com.google.step_count.delta:com.google.android.gms:estimated_steps` is
/// "Google Fit: estimated_steps (derived:com.google.step_count.delta:com.google.android.gms)". Nothing
/// of the id is lost (two phones' streams stay two sources), and the names sort as Google Fit counts:
/// where streams of the same steps overlap, a day's total takes each minute from the first by name
/// (`SourcePriority`), and Google's estimate (`estimated_steps`, what the Fit app shows) sorts before
/// the merged raw deltas (`merge_…`) and the app's own copy (`top_level`). The Takeout CSVs' sources,
/// "Google Fit" and "Google Fit (15 min)", sort before every stream.
enum GoogleFitSourceName {
    static func of(dataSource id: String) -> String {
        // A stream derived from another names that one after "<-": the stream's own name is before it.
        let own: Substring, from: Substring
        if let arrow = id.range(of: "<-") {
            own = id[..<arrow.lowerBound]
            from = id[arrow.lowerBound...]
        } else {
            own = id[...]
            from = ""
        }
        guard let colon = own.lastIndex(of: ":"), own.index(after: colon) < own.endIndex else { return "Google Fit: " + id }
        return "Google Fit: \(own[own.index(after: colon)...]) (\(own[..<colon])\(from))"
    }
}
