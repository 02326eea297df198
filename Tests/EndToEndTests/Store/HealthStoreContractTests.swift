import BuiltinPlugins
import CSQLite
import Foundation
import HealthPipeCore
import HealthPipeStore
import Testing

/// One suite for every store (`HealthStore`): the same data imported into a SQLite file and into a real
/// PostgreSQL database answers every question of the protocol — subjects, settings, pending days, the
/// views' reads over whole histories and windows, episodes that began before a window — with the same
/// rows in the same order. A new store passes by being added to `stores`.
@Suite(.serialized, .enabled(if: PostgresServer.available, "\(PostgresServer.unavailable ?? "")"))
struct HealthStoreContractTests {
    /// CGM, pump (basal rates, boluses), Nightscout treatments (meals, notes, exercise), Apple Health
    /// (steps, heart rate: daily summaries other than glucose) and an overlapping second CGM source.
    static let samples = [
        "dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv", "tandem/tconnect_therapy_timeline.csv",
        "nightscout/cgm_format_nightscout_treatments.json", "nightscout/nightscout_treatments_loop.json",
        "apple-health/apple-health-parser_tests_export.xml", "overlap/clarity_g6_mgdl.csv", "overlap/nightscout_entries.json",
    ]

    /// Every read of the protocol for every subject, as comparable text.
    static func answers(_ store: HealthStore) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        let reader = try store.reader()
        out["allSubjects"] = try store.allSubjects()
        out["settings"] = try store.storedSettingRows()?.map { "\($0.step) \($0.options) \($0.fingerprint)" } ?? ["none"]
        out["pending"] = [String(try store.hasPendingDays(subjects: nil))]
        let metrics = ["glucose", BasalRates.metric.text, "heart_rate", "steps"]
        for metric in metrics { out["subjects \(metric)"] = try reader.subjects(metric: metric) }
        for subject in try store.allSubjects() {
            for metric in metrics {
                guard let span = try reader.readingSpan(subject: subject, metric: metric) else { out["\(subject) \(metric) span"] = ["none"]; continue }
                out["\(subject) \(metric) span"] = [text(span.first), text(span.last)]
                out["\(subject) \(metric) all"] = try reader.readings(subject: subject, metric: metric, fromUTC: span.first.start,
                                                                      toUTC: span.last.start + 1).map(text)
                // A window that cuts through the history (half-open: the reading at `to` is out).
                out["\(subject) \(metric) window"] = try reader.readings(subject: subject, metric: metric, fromUTC: span.first.start + 3_601,
                                                                         toUTC: span.first.start + 72_000).map(text)
            }
            let days = (try reader.readingSpan(subject: subject, metric: "glucose")).map {
                (LocalDays.day($0.first.start, $0.first.utcOffset) - 2, LocalDays.day($0.last.start, $0.last.utcOffset) + 2)
            } ?? (CivilDate.days(fromISO: "2015-01-01")!, CivilDate.days(fromISO: "2030-12-31")!)
            let bounds = LocalDays.utcBounds(firstDay: days.0, lastDay: days.1)
            out["\(subject) events"] = try reader.events(subject: subject, fromUTC: bounds.from, toUTC: bounds.to).map(text)
            let mid = bounds.from + (bounds.to - bounds.from) / 2
            out["\(subject) events window"] = try reader.events(subject: subject, fromUTC: mid, toUTC: mid + 86_400 * 3,
                                                                 episodeLookbackDays: 31).map(text)
            let (from, to) = (CivilDate.isoDate(fromDays: days.0), CivilDate.isoDate(fromDays: days.1))
            out["\(subject) dayLog"] = try reader.dayLog(subject: subject, fromDay: from, toDay: to).map { "\($0)" }
            out["\(subject) other"] = try reader.otherDailySummaries(subject: subject, fromDay: "2000-01-01", toDay: "2099-12-31").map { "\($0)" }
            out["\(subject) lastOther"] = [try reader.lastOtherSummaryDay(subject: subject) ?? "none"]
        }
        return out
    }

    static func text(_ m: HealthPipeCore.Measurement) -> String {
        "\(m.metric.text) \(m.source.text) \(m.start) \(m.end) \(m.utcOffset) \(m.value) \(m.unit.text) \(m.flags.rawValue) \(m.band.text)"
    }

    static func text(_ e: Event) -> String {
        "\(e.kind.rawValue) \(e.subtype.text) \(e.source.text) \(e.start) \(e.end) \(e.utcOffset) \(String(describing: e.carbs)) "
            + "\(String(describing: e.insulin)) \(String(describing: e.protein)) \(String(describing: e.fat)) \(e.intensity.text) "
            + "\(e.note ?? "-") \(e.flags.rawValue)"
    }

    @Test func everyStoreAnswersTheSameForTheSameImports() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.createDatabase("contract")
        let dir = E2E.tempDir()
        let stores: [HealthStore] = [SQLiteHealthStore(path: dir.appendingPathComponent("ref.sqlite").path),
                                     HealthStores.at(server.url("contract"))]
        let locations = [dir.appendingPathComponent("ref.sqlite").path, server.url("contract")]
        for file in Self.samples.map({ E2E.samples.appendingPathComponent($0).path }) {
            for db in locations {
                let r = try E2E.run(["import", file, "--db", db, "--timezone", "Europe/Berlin"], cwd: dir)
                #expect(r.code == E2E.importExit(ofSample: file), "\(file) → \(db): \(r.stderr)")
            }
        }
        let reference = try Self.answers(stores[0])
        // The suite reads something of every kind, or it would pass on empty stores.
        #expect(reference["allSubjects"]?.isEmpty == false && reference["pending"] == ["false"])
        for subject in reference["allSubjects"] ?? [] where reference["\(subject) glucose span"] != ["none"] {
            #expect((reference["\(subject) glucose all"]?.count ?? 0) > 1_000, "\(subject)")
            #expect((reference["\(subject) glucose window"]?.count ?? 0) > 0, "\(subject)")
            #expect((reference["\(subject) dayLog"]?.count ?? 0) > 5, "\(subject)")
        }
        #expect(reference.contains { $0.key.hasSuffix(" events") && $0.value.count > 10 })
        #expect(reference.contains { $0.key.hasSuffix("\(BasalRates.metric.text) all") && $0.value.count > 10 })
        #expect(reference.contains { $0.key.hasSuffix(" other") && !$0.value.isEmpty })
        for store in stores.dropFirst() {
            let answers = try Self.answers(store)
            for key in Set(reference.keys).union(answers.keys).sorted() {
                #expect(answers[key] == reference[key], "\(store.name): \(key)")
            }
        }

        // The views on either store: the same JSON, SVG and page, byte for byte.
        let subject = try #require(reference["subjects glucose"]?.first)
        let views: [[String]] = [["chart", "day", "--today", "2024-01-01"], ["chart", "day", "--svg", "day.svg", "--today", "2024-01-01"],
                                 ["chart", "agp"], ["chart", "days", "--from", "2016-01-01", "--to", "2025-12-31"], ["page", "-o", "page.html", "--today", "2024-01-01"]]
        for view in views {
            var outputs: [String] = []
            for (i, db) in locations.enumerated() {
                let args = view.map { $0.hasSuffix(".svg") || $0.hasSuffix(".html") ? "\(i)-\($0)" : $0 }
                let r = try E2E.run(args + ["--db", db, "--subject", subject], cwd: dir)
                #expect(r.code == 0, "\(view) on \(i == 0 ? "SQLite" : "PostgreSQL"): \(r.stderr)")
                let file = args.first { $0.hasSuffix(".svg") || $0.hasSuffix(".html") }
                outputs.append(try file.map { try String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8) } ?? r.stdout)
            }
            #expect(outputs[0].count > 1_000, "\(view)")
            #expect(outputs[0] == outputs[1], "\(view): PostgreSQL's view differs from SQLite's")
        }
        // What only SQLite keeps is refused with the reason, the password unshown.
        let history = try E2E.run(["chart", "history", "--db", locations[1]], cwd: dir)
        #expect(history.code == 1 && history.stderr.contains("SQLite database only"), "\(history.stderr)")
        #expect(!history.stderr.contains(PostgresServer.password))
    }

    /// The rows a refresh replaces for a day (a day's summaries, bands, metric sets), of one subject in
    /// key order, from SQL: every column of each table's description.
    static let dayTables = [StoreTables.dailySummaries, StoreTables.dailyBands, StoreTables.glucoseMetrics, StoreTables.glucoseAGP]

    static func derivedRows(subject: String, _ query: (String) throws -> [[String]]) throws -> [String: [[String]]] {
        var out: [String: [[String]]] = [:]
        for t in dayTables {
            let columns = t.columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
            out[t.name] = try query("SELECT \(columns) FROM \(t.name) WHERE subject = '\(subject)' ORDER BY \(t.primaryKey.joined(separator: ", "))")
        }
        return out
    }

    /// Settings are adopted once, by a store that has none; pending days are found, and a refresh
    /// through the protocol takes them off and recomputes their rows (damaged here first) exactly as
    /// a clean `reaggregate` does, in every store.
    @Test func settingsAdoptedOnceAndRefreshRecomputesPendingDays() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.createDatabase("fresh")
        try server.createDatabase("filled")
        let dir = E2E.tempDir()
        let fresh: [HealthStore] = [SQLiteHealthStore(path: dir.appendingPathComponent("fresh.sqlite").path),
                                    HealthStores.at(server.url("fresh"))]
        let rows = [DerivationSettings.StoredStep(step: "classify", options: "{preset: seeds}", fingerprint: "classify seeds"),
                    DerivationSettings.StoredStep(step: "daily", options: "{}", fingerprint: "daily")]
        for store in fresh {
            #expect(try store.storedSettingRows() == nil, "\(store.name)")
            try store.adopt(rows)
            try store.adopt([DerivationSettings.StoredStep(step: "daily", options: "{}", fingerprint: "other")])
            #expect(try store.storedSettingRows() == rows, "\(store.name): the first settings stay")
        }

        let sqlite = dir.appendingPathComponent("filled.sqlite")
        let filled: [(store: HealthStore, db: String, sql: (String) throws -> [[String]])] = [
            (SQLiteHealthStore(path: sqlite.path), sqlite.path, { sql in
                guard sql.hasPrefix("SELECT") else { try SQLiteExec.run(sqlite, sql); return [] }
                return E2E.query(sqlite, sql)
            }),
            (HealthStores.at(server.url("filled")), server.url("filled"), { try server.query("filled", $0) }),
        ]
        let sample = E2E.samples.appendingPathComponent(Self.samples[0]).path
        let registry = try BuiltinPlugins.registry()
        for (store, db, sql) in filled {
            for command in [["import", sample], ["reaggregate"]] {
                let r = try E2E.run(command + ["--db", db, "--timezone", "Europe/Berlin"], cwd: dir)
                #expect(r.code == 0, "\(command[0]) → \(store.name): \(r.stderr)")
            }
            let before = try Self.answers(store)
            let subject = try #require(try store.allSubjects().first)
            let clean = try Self.derivedRows(subject: subject, sql)
            let days = try store.reader().dayLog(subject: subject, fromDay: "1900-01-01", toDay: "2099-12-31")
            let day = CivilDate.isoDate(fromDays: try #require(days.dropFirst(3).first, "\(store.name) \(subject): \(days.count) days").day)

            // The day's rows damaged behind the store's back: some wrong, some gone.
            let ofDay = "subject = '\(subject)' AND day = '\(day)'", ofDayPeriod = "subject = '\(subject)' AND period_start = '\(day)' AND period_end = '\(day)'"
            for (table, filter) in [("daily_summaries", ofDay), ("daily_bands", ofDay), ("glucose_metrics", ofDayPeriod)] {
                #expect(try sql("SELECT count(*) FROM \(table) WHERE \(filter)") != [["0"]], "\(store.name) \(table) \(day)")
            }
            _ = try sql("UPDATE daily_summaries SET n = n + 1, mean = mean + 1, exercise_min = exercise_min + 30 WHERE \(ofDay)")
            _ = try sql("DELETE FROM daily_bands WHERE \(ofDay)")
            _ = try sql("DELETE FROM glucose_metrics WHERE \(ofDayPeriod)")
            _ = try sql("INSERT INTO derived_pending (subject, day) VALUES ('\(subject)', '\(day)')")
            #expect(try Self.derivedRows(subject: subject, sql) != clean, "\(store.name): the damage shows")

            #expect(try store.hasPendingDays(subjects: [subject]), "\(store.name)")
            let report = try #require(try StoreDerivation.refresh(store, subjects: [subject], registry: registry,
                                                                  run: RunSettings(timezone: "Europe/Berlin"),
                                                                  quarantine: dir.appendingPathComponent("q.ndjson").path))
            #expect(report.outcome == .completed, "\(store.name): \(report.error ?? "")")
            #expect(try !store.hasPendingDays(subjects: [subject]), "\(store.name)")
            let refreshed = try Self.derivedRows(subject: subject, sql)
            for table in Self.dayTables.map(\.name) {
                #expect(refreshed[table] == clean[table], "\(store.name) \(table): a refresh recomputes what reaggregate did")
            }
            #expect(try Self.answers(store) == before, "\(store.name): the protocol's reads are as before")
        }
    }
}

/// Writes to a SQLite file as another process would (the tests' own connection, not the store's).
enum SQLiteExec {
    static func run(_ db: URL, _ sql: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(db.path, &handle) == SQLITE_OK else { throw PostgresServer.Failure("cannot open \(db.path)") }
        defer { sqlite3_close(handle) }
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw PostgresServer.Failure(String(cString: sqlite3_errmsg(handle)))
        }
    }
}
