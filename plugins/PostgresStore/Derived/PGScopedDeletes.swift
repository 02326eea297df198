import HealthPipeCore

/// The deletes that open a refresh's transaction (`PGRewriteSession`), by what is pending, as SQLite's
/// refresh deletes (`DerivedTables`): a subject pending whole loses every derived row and its grid;
/// a pending day its daily rows and single-day sets, and the grid of the days around it that the
/// grid step reads; with steps that read whole histories, the subject's forecasts, alerts and period
/// sets too. Nothing of another day is touched.
struct PGScopedDeletes {
    let db: PGConnection
    let pending: PostgresPendingDays

    static let dayDeletes = [
        "DELETE FROM daily_summaries WHERE (subject, day) IN (SELECT * FROM unnest($1::text[], $2::text[]))",
        "DELETE FROM daily_bands WHERE (subject, day) IN (SELECT * FROM unnest($1::text[], $2::text[]))",
        "DELETE FROM glucose_metrics WHERE (subject, period_start, period_end) IN (SELECT s, d, d FROM unnest($1::text[], $2::text[]) u(s, d))",
        "DELETE FROM glucose_agp WHERE (subject, period_start, period_end) IN (SELECT s, d, d FROM unnest($1::text[], $2::text[]) u(s, d))",
    ]
    static let subjectDeletes = [
        "DELETE FROM glucose_metrics WHERE subject = ANY($1::text[]) AND period_start != period_end",
        "DELETE FROM glucose_agp WHERE subject = ANY($1::text[]) AND period_start != period_end",
        "DELETE FROM forecasts WHERE subject = ANY($1::text[])",
        "DELETE FROM alerts WHERE subject = ANY($1::text[])",
    ]

    func run() throws {
        let whole = pending.whole.sorted()
        if !whole.isEmpty {
            for table in PGRewriteSession.derivedTables {
                try db.query("DELETE FROM \(table) WHERE subject = ANY($1::text[])", [PGArray.text(whole)])
            }
            try db.query("""
                DELETE FROM measurement_rows WHERE series IN (SELECT id FROM measurement_series WHERE subject = ANY($1::text[]))
                   AND flags & 128 != 0
                """, [PGArray.text(whole)])
        }
        let (subjects, days) = pending.dayRows
        guard !subjects.isEmpty else { return }
        for sql in Self.dayDeletes { try db.query(sql, [PGArray.text(subjects), PGArray.text(days)]) }
        let byDay = Array(Set(subjects)).sorted()
        if pending.wholeSubjects {
            for sql in Self.subjectDeletes { try db.query(sql, [PGArray.text(byDay)]) }
        }
        for subject in byDay { try deleteGrid(of: subject) }
    }

    /// The grid rows of a subject's pending days and their margin, through the key of each of its series.
    private func deleteGrid(of subject: String) throws {
        let groups = try db.query(PGSeriesSQL.subjectSeriesCTE + " SELECT series FROM g", [subject])
        for range in pending.gridRanges(subject) {
            let utc = LocalDays.utcBounds(range)
            for g in 0..<groups.count {
                try db.query("""
                    DELETE FROM measurement_rows WHERE series = $1 AND start BETWEEN $2 AND $3
                       AND start + utc_offset BETWEEN $4 AND $5 AND flags & 128 != 0
                    """, [String(groups.int(g, 0)), String(utc.lowerBound), String(utc.upperBound),
                          String(range.lowerBound * 86_400), String((range.upperBound + 1) * 86_400 - 1)])
            }
        }
    }
}
