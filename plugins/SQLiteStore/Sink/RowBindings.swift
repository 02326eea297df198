import HealthPipeCore

/// Each record's parameters for its table's upsert (`RowUpsert`), in the table description's
/// column order.
extension ForecastPoint {
    /// forecasts, keyed (subject, metric, model, issued_at, at).
    func bindUpsert(_ s: Statement, _ symbols: SymbolBytes) throws {
        try symbols.bind(subject, to: s, at: 1)
        try symbols.bind(metric, to: s, at: 2)
        try symbols.bind(model, to: s, at: 3)
        try s.bindInt(4, issuedAt)
        try s.bindInt(5, at)
        try s.bindInt(6, Int64(utcOffset))
        try s.bindDouble(7, value)
    }
}

extension Alert {
    /// alerts, keyed (subject, metric, kind, start).
    func bindUpsert(_ s: Statement, _ symbols: SymbolBytes) throws {
        try symbols.bind(subject, to: s, at: 1)
        try symbols.bind(metric, to: s, at: 2)
        try s.bindText(3, kind.rawValue)
        try s.bindInt(4, start)
        try s.bindInt(5, end)
        try s.bindInt(6, Int64(utcOffset))
        try s.bindDouble(7, Double(durationSeconds) / 60)
        try s.bindDouble(8, value)
        try s.bindDouble(9, threshold)
        try symbols.bind(model, to: s, at: 10)
    }
}

extension ReportDay {
    /// report_days: the daily summary report, one row per subject, local day and value.
    func bindUpsert(_ s: Statement, _ symbols: SymbolBytes) throws {
        try symbols.bind(subject, to: s, at: 1)
        try s.bindText(2, CivilDate.isoDate(fromDays: day))
        try symbols.bind(metric, to: s, at: 3)
        try symbols.bind(unit, to: s, at: 4)
        try s.bindInt(5, Int64(reports))
        try s.bindInt(6, Int64(count))
        try s.bindDouble(7, mean)
        try s.bindDouble(8, min)
        try s.bindDouble(9, max)
        try s.bindInt(10, Int64(maxImportance))
    }
}

extension SubjectProfile {
    /// subject_profiles, one row per (subject, source): a newer export's values replace older ones.
    func bindUpsert(_ s: Statement, _ symbols: SymbolBytes, _ imports: ImportLog) throws {
        try symbols.bind(subject, to: s, at: 1)
        try symbols.bind(source, to: s, at: 2)
        try s.bindText(3, dateOfBirth)
        try s.bindText(4, biologicalSex)
        try s.bindText(5, bloodType)
        try s.bindText(6, skinType)
        try s.bindText(7, attributes)
        try imports.bindImport(of: provenance, to: s, at: 8)
    }
}

extension MotionSession {
    /// motion_sessions, keyed (subject, device, start_ms), with the seed's local date fields (`localStart`).
    func bindUpsert(_ s: Statement, _ symbols: SymbolBytes, _ imports: ImportLog) throws {
        let local = localStart
        try symbols.bind(subject, to: s, at: 1)
        try symbols.bind(device, to: s, at: 2)
        try s.bindInt(3, start)
        try symbols.bind(source, to: s, at: 4)
        try s.bindInt(5, end)
        try s.bindInt(6, startSeconds)
        try s.bindInt(7, endSeconds)
        try s.bindInt(8, Int64(utcOffset))
        try s.bindDouble(9, durationSeconds)
        try s.bindDouble(10, activeSeconds)
        try s.bindDouble(11, average)
        try s.bindDouble(12, accomplishment)
        try s.bindInt(13, samples)
        try s.bindText(14, endReason.rawValue)
        try s.bindInt(15, Int64(local.year))
        try s.bindInt(16, Int64(local.month))
        try s.bindInt(17, Int64(local.day))
        try s.bindText(18, local.time)
        try s.bindInt(19, Int64(local.dayOfWeek))
        try s.bindInt(20, Int64(local.daysInMonth))
        if provenance.line > 0 { try s.bindInt(21, provenance.line) } else { try s.bindNull(21) }
        try imports.bindImport(of: provenance, to: s, at: 22)
    }
}
