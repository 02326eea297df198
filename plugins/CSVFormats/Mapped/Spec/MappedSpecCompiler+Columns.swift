import HealthPipeCore

/// Column references, the timestamp and the value columns.
extension MappedSpecCompiler {
    static let tokenHelp = "tokens: %Y %y %m %d %b (month name) %H %I %M %S %p %z %%, or the whole format epoch / epoch_ms"

    /// A column reference: a 1-based index in headerless files, else a header name. Structural
    /// references (timestamp, subject, source, filter) must be among `detect.header_contains`, so a file
    /// the rule accepts always has them, and a typo is caught here rather than on every file.
    mutating func ref(_ text: String, _ path: [String], atKey: Bool = false, structural: Bool) -> ColumnRef? {
        if header == .none {
            guard let n = Int(text.trimmingCharacters(in: .whitespaces)), n >= 1 else {
                nodes.fail(path, atKey: atKey, "a headerless adapter (header: none) names columns by 1-based position, not '\(text)'")
                return nil
            }
            if let count = fieldCount, n > count {
                nodes.fail(path, atKey: atKey, "column \(n) is beyond detect.field_count (\(count))")
                return nil
            }
            return .index(n - 1)
        }
        let name = ColumnNames.normalize(text)
        if ColumnNames.alternatives(name).contains("") {
            nodes.fail(path, atKey: atKey, "column name '\(text)' has an empty alternative")
            return nil
        }
        if structural, !headerCells.isEmpty, !ColumnNames.listed(name, among: headerCells) {
            let known = headerCells + (spec.columns?.entries.map { ColumnNames.normalize($0.key) } ?? [])
            nodes.fail(path, atKey: atKey,
                       "unknown column '\(text)': a timestamp, subject, source or filter column must be listed in detect.header_contains ("
                        + headerCells.joined(separator: ", ") + ")",
                       suggestion: NameSuggester.nearest(to: name, in: known))
            return nil
        }
        return .name(name)
    }

    /// A required structural column reference.
    mutating func requiredRef(_ text: String?, _ path: [String]) -> ColumnRef? {
        guard let text = required(text, path) else { return nil }
        return ref(text, path, structural: true)
    }

    /// An optional structural column reference (nil when absent or wrong).
    mutating func optionalRef(_ text: String?, _ path: [String]) -> ColumnRef? {
        guard let text else { return nil }
        return ref(text, path, structural: true)
    }

    mutating func checkTimestamp() -> MappedAdapter.TimeSource? {
        guard let t = spec.timestamp else {
            nodes.fail(["timestamp"], "missing required option 'timestamp' (column + format, or date_column + date_format [+ time_column + time_format])")
            return nil
        }
        let single = Self.alternatives(t.format, t.formats)
        if t.column != nil || !single.isEmpty {
            for (set, key) in [(t.date_column != nil, "date_column"), (t.date_format != nil, "date_format"), (t.date_formats != nil, "date_formats"),
                               (t.time_column != nil, "time_column"), (t.time_format != nil, "time_format"), (t.time_formats != nil, "time_formats")] where set {
                nodes.fail(["timestamp", key], atKey: true, "use either column + format or date_column + date_format, not both")
            }
            let col = requiredRef(t.column, ["timestamp", "column"])
            if single.isEmpty { nodes.fail(["timestamp", "format"], "missing required option 'format'") }
            let key = t.formats != nil ? "formats" : "format"
            let compiled = single.compactMap { pattern($0, ["timestamp", key], label: "format") }
            guard let col, !compiled.isEmpty, compiled.count == single.count else { return nil }
            return .single(col, Self.patterns(compiled, single))
        }
        let date = requiredRef(t.date_column, ["timestamp", "date_column"])
        let dates = Self.alternatives(t.date_format, t.date_formats)
        let dateKey = t.date_formats != nil ? "date_formats" : "date_format"
        if dates.isEmpty { nodes.fail(["timestamp", "date_format"], "missing required option 'date_format'"); return nil }
        if let f = dates.first(where: { $0.hasPrefix("epoch") }) {
            nodes.fail(["timestamp", dateKey], "epoch times are one cell: use column + format: \(f)")
            return nil
        }
        let times = Self.alternatives(t.time_format, t.time_formats)
        let timeKey = t.time_formats != nil ? "time_formats" : "time_format"
        guard (t.time_column == nil) == times.isEmpty else {
            nodes.fail(["timestamp", t.time_column == nil ? timeKey : "time_column"], atKey: true,
                       "time_column and time_format go together")
            return nil
        }
        let datePatterns = dates.compactMap { pattern($0, ["timestamp", dateKey], label: "date_format") }
        guard datePatterns.count == dates.count else { return nil }
        guard let timeColumn = t.time_column else {
            guard let date else { return nil }
            return .split(date: date, time: nil, Self.patterns(datePatterns, dates))
        }
        let time = ref(timeColumn, ["timestamp", "time_column"], structural: true)
        // A time format has no year of its own; check its tokens behind a dummy year.
        let timesOK = times.allSatisfy { pattern("%Y " + $0, ["timestamp", timeKey], label: "time_format", shown: $0) != nil }
        guard let date, let time, timesOK else { return nil }
        // Every date format with every time format, in the order written.
        var joinedText: [String] = []
        for d in dates { for tf in times { joinedText.append(d + " " + tf) } }
        let joined = joinedText.compactMap { pattern($0, ["timestamp"], label: "date + time format") }
        guard joined.count == joinedText.count else { return nil }
        return .split(date: date, time: time, Self.patterns(joined, joinedText))
    }

    /// `format` and `formats` together, in that order.
    static func alternatives(_ one: String?, _ many: [String]?) -> [String] {
        (one.map { [$0] } ?? []) + (many ?? [])
    }

    static func patterns(_ compiled: [TimestampPattern], _ texts: [String]) -> MappedAdapter.Patterns {
        .init(list: compiled, texts: texts, monthNames: texts.contains { $0.contains("%b") })
    }

    private mutating func pattern(_ text: String, _ path: [String], label: String, shown: String? = nil) -> TimestampPattern? {
        do {
            // A month name is rewritten to its number before parsing (MonthNames).
            return try TimestampPattern(text.replacingOccurrences(of: "%b", with: "%m"))
        } catch let e as TimestampPatternError {
            nodes.fail(path, "\(label) '\(shown ?? text)': \(e.reason) (\(Self.tokenHelp))")
        } catch {
            nodes.fail(path, "\(label) '\(text)': \(error)")
        }
        return nil
    }

    mutating func checkColumns() -> [ValueMapping]? {
        guard let entries = spec.columns?.entries, !entries.isEmpty else {
            nodes.fail(["columns"], "missing required option 'columns' (at least one column that becomes a measurement or an event)")
            return nil
        }
        var out: [ValueMapping] = []
        var seen: Set<ColumnRef> = []
        for (key, c) in entries {
            let path = ["columns", key]
            let eachRow = c.each_row ?? false
            let column: ColumnRef
            if eachRow {
                if c.event == nil { nodes.fail(path + ["each_row"], atKey: true, "each_row makes an event (meal, note …) for each row: give event:") }
                if c.field != nil { nodes.fail(path + ["field"], atKey: true, "an each_row event has no amount: drop field:") }
                // `from:` (and `unit_column:`) keep a value that is no amount — a temporary basal's
                // percentage — in the event's metadata, so the row's value is not lost.
                if let from = c.from {
                    guard let r = ref(from, path + ["from"], structural: false) else { continue }
                    column = r
                } else {
                    column = .eachRow
                }
            } else if let from = c.from {
                guard let r = ref(from, path + ["from"], structural: false) else { continue }
                column = r
            } else {
                guard let r = ref(key, path, atKey: true, structural: false) else { continue }
                column = r
            }
            // Entries for different row types may read one column.
            if c.when == nil, !eachRow, !seen.insert(column).inserted { nodes.fail(path, atKey: true, "column \(column) is mapped twice") }
            let when = c.when.map { $0.map { Array($0.trimmingCharacters(in: .whitespaces).lowercased().utf8) } }
            if let when, when.isEmpty || when.contains(where: \.isEmpty) {
                nodes.fail(path + ["when"], "when: lists the row types (values of row_type_column) the entry reads")
            }
            guard let target = eachRow ? eachRowTarget(c, path) : target(c, path) else { continue }
            if let s = c.scale, !(s.isFinite && s != 0) { nodes.fail(path + ["scale"], "scale must be a non-zero number") }
            if let lo = c.min, let hi = c.max, lo > hi { nodes.fail(path + ["max"], "max (\(hi)) is below min (\(lo))") }
            if c.optional == true, header == .none {
                nodes.fail(path + ["optional"], atKey: true, "a headerless file has every column: optional is for named columns")
            }
            var mapping = ValueMapping(column: column, target: target, scale: c.scale ?? 1, min: c.min, max: c.max,
                                       skipZero: c.skip_zero ?? false, optional: c.optional ?? false,
                                       high: limit(c.high, path + ["high"], target), low: limit(c.low, path + ["low"], target),
                                       when: when, eachRow: eachRow, importance: importance(c, target, path))
            if let u = c.unit_column {
                mapping.unitColumn = ref(u, path + ["unit_column"], structural: false)
                mapping.unitDefault = c.unit != nil
                if eachRow {
                    if c.from == nil { nodes.fail(path + ["unit_column"], atKey: true, "an each_row entry keeps a unit with its from: value: give from:") }
                    out.append(mapping)
                    continue
                }
                guard case .measurement(_, _, _?) = target, c.importance == nil, c.importance_column == nil else {
                    nodes.fail(path + ["unit_column"], atKey: true, "unit_column reads a glucose unit per row (mg/dL or mmol/L): it is for glucose measurements")
                    continue
                }
                if c.min != nil || c.max != nil {
                    nodes.fail(path + [c.min != nil ? "min" : "max"], atKey: true,
                               "min / max are in the unit as written, which unit_column makes differ per row: the plausible range of the metric applies")
                }
            }
            out.append(mapping)
        }
        let reportColumns = entries.filter { $0.spec.importance != nil || $0.spec.importance_column != nil }
        if reportColumns.count == 1, let lone = reportColumns.first {
            nodes.fail(["columns", lone.key], atKey: true, "a health report holds at least two values: give importance to two or more columns")
        }
        return out
    }

    /// The event of an `each_row` entry: its kind, subtype and length; no amount.
    private mutating func eachRowTarget(_ c: MappedSpec.ColumnSpec, _ path: [String]) -> ValueMapping.Target? {
        guard let kindText = c.event else { return nil }
        guard let kind = Event.Kind(rawValue: kindText) else {
            nodes.fail(path + ["event"], "unknown event kind '\(kindText)' (valid: \(Self.kinds))",
                       suggestion: NameSuggester.nearest(to: kindText, in: Event.Kind.allCases.map(\.rawValue)))
            return nil
        }
        let minutes = c.duration_min ?? 0
        guard minutes >= 0, minutes <= 100_000 else {
            nodes.fail(path + ["duration_min"], "duration_min must be between 0 and 100000")
            return nil
        }
        return .event(kind: kind, field: .duration, subtype: c.subtype.map { Symbol($0) } ?? .empty,
                      durationSeconds: Int64((minutes * 60).rounded()))
    }

    /// `high:` / `low:`: the words (at least one) and the value stored for them, for measurements.
    private mutating func limit(_ spec: MappedSpec.LimitSpec?, _ path: [String], _ target: ValueMapping.Target) -> ValueMapping.Limit? {
        guard let spec else { return nil }
        guard case .measurement = target else {
            nodes.fail(path, atKey: true, "'\(path.last!)' is for measurement columns (a device's out-of-range word)")
            return nil
        }
        let words = (spec.text ?? []).map { Array($0.trimmingCharacters(in: .whitespaces).lowercased().utf8) }
        guard !words.isEmpty, !words.contains(where: \.isEmpty) else {
            nodes.fail(path + ["text"], "\(path.last!) needs text: the words the device writes (e.g. [HI])")
            return nil
        }
        guard let value = spec.value, value.isFinite else {
            nodes.fail(path + ["value"], "\(path.last!) needs value: the reading stored for those words (e.g. 600)")
            return nil
        }
        return .init(words: words, value: value)
    }

    /// A report value's importance (`importance: 1–5` or `importance_column:`), for measurement columns.
    private mutating func importance(_ c: MappedSpec.ColumnSpec, _ target: ValueMapping.Target, _ path: [String]) -> ValueMapping.Importance? {
        switch (c.importance, c.importance_column) {
        case (nil, nil): return nil
        case (.some, .some):
            nodes.fail(path + ["importance_column"], atKey: true, "give importance or importance_column, not both")
            return nil
        case (let fixed?, nil):
            guard HealthReport.importanceRange.contains(fixed) else { nodes.fail(path + ["importance"], "importance is 1–5"); return nil }
            return checkReportMetric(target, path) ? .fixed(fixed) : nil
        case (nil, let column?):
            guard let ref = ref(column, path + ["importance_column"], structural: false) else { return nil }
            return checkReportMetric(target, path) ? .column(ref) : nil
        }
    }

    private mutating func checkReportMetric(_ target: ValueMapping.Target, _ path: [String]) -> Bool {
        guard case .measurement(let metric, let unit, let glucose) = target else {
            nodes.fail(path + ["importance"], atKey: true, "importance is for measurement columns (a report's values)")
            return false
        }
        guard HealthValues.metricName(metric.text) == metric.text || HealthValues.kind(named: metric.text) != nil else {
            nodes.fail(path + ["metric"], "a report value's metric is a health value name (letters, digits and _), not '\(metric.text)'")
            return false
        }
        let written = glucose.map { $0 == .mmol ? $0.rawValue : "mg/dL" } ?? unit.text
        if case .failure(let p) = HealthValues.canonical(metric: metric.text, value: 1, unit: written), case .unknownUnit = p {
            nodes.fail(path + ["unit"], "\(metric.text): \(p)")
            return false
        }
        return true
    }

    private mutating func target(_ c: MappedSpec.ColumnSpec, _ path: [String]) -> ValueMapping.Target? {
        switch (c.metric, c.event) {
        case (nil, nil):
            nodes.fail(path, atKey: true, "column needs metric: (a measurement) or event: (\(Self.kinds))")
            return nil
        case (.some, .some):
            nodes.fail(path + ["event"], atKey: true, "a column is either a metric or an event, not both")
            return nil
        case (let metric?, nil):
            for (v, k) in [(c.field, "field"), (c.subtype, "subtype")] where v != nil {
                nodes.fail(path + [k], atKey: true, "'\(k)' is for event columns")
            }
            if c.duration_min != nil { nodes.fail(path + ["duration_min"], atKey: true, "'duration_min' is for event columns") }
            // With unit_column and no unit:, a row's unit comes only from its cell (read as mg/dL until then).
            return measurement(metric, c.unit ?? (c.unit_column != nil ? "mg/dL" : nil), path)
        case (nil, let kindText?):
            if c.unit != nil {
                nodes.fail(path + ["unit"], atKey: true, "event quantities are canonical (carbs/protein/fat g, insulin U, duration min); use scale to convert")
            }
            return event(kindText, c, path)
        }
    }

    static var kinds: String { Event.Kind.allCases.map(\.rawValue).joined(separator: ", ") }

    private mutating func measurement(_ metric: String, _ unit: String?, _ path: [String]) -> ValueMapping.Target? {
        guard !metric.isEmpty else { nodes.fail(path + ["metric"], "metric must not be empty"); return nil }
        guard let unit = required(unit, path + ["unit"]) else { return nil }
        let lower = unit.lowercased()
        // Only glucose metrics in real glucose spellings convert: a plain "mg" (caffeine, say) and a
        // ketone's mmol/L must stay as written.
        let glucose = metric.contains("glucose") && (lower.hasPrefix("mg/dl") || lower.hasPrefix("mmol")) ? GlucoseUnit(spelling: unit) : nil
        if metric == "glucose", glucose == nil {
            nodes.fail(path + ["unit"], "glucose is stored in mg/dL: its unit must be mg/dL or mmol/L, not '\(unit)'")
            return nil
        }
        return .measurement(metric: Symbol(metric), unit: glucose != nil ? CanonicalUnits.glucose : Symbol(unit), glucose: glucose)
    }

    private mutating func event(_ kindText: String, _ c: MappedSpec.ColumnSpec, _ path: [String]) -> ValueMapping.Target? {
        guard let kind = Event.Kind(rawValue: kindText) else {
            nodes.fail(path + ["event"], "unknown event kind '\(kindText)' (valid: \(Self.kinds))",
                       suggestion: NameSuggester.nearest(to: kindText, in: Event.Kind.allCases.map(\.rawValue)))
            return nil
        }
        let fields = EventField.allCases.map(\.rawValue)
        var field = EventField.defaultField(for: kind)
        if let f = c.field {
            field = EventField(rawValue: f)
            if field == nil {
                nodes.fail(path + ["field"], "unknown event field '\(f)' (valid: \(fields.joined(separator: ", ")))",
                           suggestion: NameSuggester.nearest(to: f, in: fields))
                return nil
            }
        }
        guard let field else {
            nodes.fail(path + ["event"], "a \(kind.rawValue) event needs field: (\(fields.joined(separator: ", ")))")
            return nil
        }
        let minutes = c.duration_min ?? 0
        guard minutes >= 0, minutes <= 100_000 else {
            // Refused here, not converted: 1e100 minutes does not fit the seconds it becomes (found by fuzzing).
            nodes.fail(path + ["duration_min"], "duration_min must be between 0 and 100000")
            return nil
        }
        return .event(kind: kind, field: field, subtype: c.subtype.map { Symbol($0) } ?? .empty,
                      durationSeconds: Int64((minutes * 60).rounded()))
    }
}
