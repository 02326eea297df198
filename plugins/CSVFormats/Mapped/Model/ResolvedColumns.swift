/// The adapter's column references turned into 0-based cell positions for one file.
struct ResolvedColumns {
    var date: Int
    var time: Int?
    var subject: Int?
    var source: Int?
    var filter: Int?
    var rowType: Int? = nil
    var dateFallback: Int? = nil
    /// The end of the row's span (`MappedAdapter.timeEnd`).
    var end: Int? = nil
    /// The free-text columns, in the adapter's order.
    var notes: [Int] = []
    /// Parallel to `MappedAdapter.values`; -1: an optional column this file does not have.
    var values: [Int]
    /// Parallel to `values`: the column of each report value's importance.
    var importance: [Int?] = []
    /// Parallel to `values`: the column naming each row's unit (`unit_column`); -1: none.
    var units: [Int] = []
    /// The widest position used (detection wants data rows at least this wide).
    var maxIndex: Int

    /// Positions in a headered file; `missing` names the referenced columns the header lacks.
    static func resolve(_ adapter: MappedAdapter, header: [String]) -> (columns: ResolvedColumns?, missing: [String]) {
        var missing: [String] = []
        func find(_ ref: ColumnRef, optional: Bool) -> Int {
            switch ref {
            case .index(let i): return i
            case .eachRow: return -1
            case .name(let n):
                if let i = ColumnNames.index(of: n, in: header) { return i }
                if !optional, !missing.contains(n) { missing.append(n) }
                return -1
            }
        }
        let resolved = make(adapter, find)
        return (missing.isEmpty ? resolved : nil, missing)
    }

    /// Positions in a headerless file (references are indexes).
    static func headerless(_ adapter: MappedAdapter) -> ResolvedColumns {
        make(adapter) { ref, _ in
            if case .index(let i) = ref { return i }
            if case .eachRow = ref { return -1 }
            return -1  // the compiler refuses names in headerless adapters
        }
    }

    /// `find` gives -1 for a column the header lacks (an optional value column is then skipped).
    private static func make(_ a: MappedAdapter, _ lookup: (ColumnRef, _ optional: Bool) -> Int) -> ResolvedColumns {
        func find(_ ref: ColumnRef) -> Int { lookup(ref, false) }
        let date: Int, time: Int?
        switch a.time {
        case .single(let c, _): date = find(c); time = nil
        case .split(let d, let t, _): date = find(d); time = t.map(find)
        }
        let subject = a.subject.map(find), source = a.sourceColumn.map(find), filter = a.filter.map { find($0.column) }
        let values = a.values.map { lookup($0.column, $0.optional) }
        let notes = a.notes.map(find)
        let rowType = a.rowType.map(find), dateFallback = a.timeFallback.map(find), end = a.timeEnd.map(find)
        let importance = a.values.map { v -> Int? in if case .column(let c)? = v.importance { return find(c) } else { return nil } }
        let units = a.values.map { v in v.unitColumn.map(find) ?? -1 }
        let all = [date, time ?? 0, subject ?? 0, source ?? 0, filter ?? 0, rowType ?? 0, dateFallback ?? 0, end ?? 0] + notes + values
            + importance.compactMap { $0 } + units
        return ResolvedColumns(date: date, time: time, subject: subject, source: source, filter: filter,
                               rowType: rowType, dateFallback: dateFallback, end: end, notes: notes, values: values,
                               importance: importance, units: units, maxIndex: all.max() ?? 0)
    }
}
