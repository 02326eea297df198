import CSQLite
import Foundation
import Testing

/// The `postgres` sink and `postgres-source` against a real PostgreSQL 15 started by the test: an
/// import into PostgreSQL equals the same import into SQLite row by row, a re-import adds 0 rows,
/// `reaggregate` computes the same from either store, passwords never show, and a killed import
/// leaves a consistent store that a re-run completes.
@Suite(.serialized, .enabled(if: PostgresServer.available, "\(PostgresServer.unavailable ?? "")"))
struct PostgresStoreTests {
    /// Bundled samples of several formats, Apple exports with their side files (GPX routes, an ECG; a
    /// `Me` profile), imported one file per run so the order rows land in is the same in both stores.
    /// (Not healthkit-to-sqlite_tests_export.xml: its workout is the zip's with other metadata, so
    /// importing both again would rightly change it twice.)
    static let samples = [
        "dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv", "libreview/cgm_format_FreeStyle_Libre_3_synthetic.csv",
        "medtronic-carelink/cgm_format_medtronics_test_livia_TRIMMED.csv", "tandem/tconnect_therapy_timeline.csv",
        "nightscout/cgm_format_nightscout_treatments.json", "tidepool/tidepool_export.json",
        "apple-health/apple-health-parser_tests_export.xml", "apple-health/side-files_export.zip",
        "apple-health/healthkit-to-sqlite_export.zip", "overlap/clarity_g6_mgdl.csv", "overlap/nightscout_entries.json",
    ]

    /// Each table as sorted rows of text, every number in its shortest round-trip form (exact: the same
    /// double prints the same), in both stores; device and import ids are store-local, so rows name the
    /// device's attributes and the path.
    static let tables: [(name: String, columns: String)] = [
        ("measurements", "subject, metric, source, start, \"end\", value, utc_offset, unit, flags, band, line, metadata, "
            + "(SELECT attributes FROM devices d WHERE d.id = device_id), (SELECT path FROM imports i WHERE i.id = import_id)"),
        ("events", "subject, kind, subtype, source, start, amount, \"end\", utc_offset, carbs_g, protein_g, fat_g, insulin_u, "
            + "intensity, note, flags, line, metadata, (SELECT attributes FROM devices d WHERE d.id = device_id)"),
        ("daily_summaries", "*"), ("daily_bands", "*"), ("glucose_metrics", "*"), ("glucose_agp", "*"), ("forecasts", "*"),
        ("alerts", "*"), ("subject_profiles", "subject, source, date_of_birth, biological_sex, blood_type, skin_type, attributes, "
            + "(SELECT path FROM imports i WHERE i.id = import_id)"),
        ("imports", "path, format, size, hash, status, runs, rows_read, measurements, events, rejected, new_rows"),
        ("derivation_settings", "*"), ("devices", "attributes, name, manufacturer, model, hardware, software"),
        ("workout_routes", "subject, source, start, name, \"end\", utc_offset, workout_start, points, line, "
            + "(SELECT attributes FROM devices d WHERE d.id = device_id), (SELECT path FROM imports i WHERE i.id = import_id)"),
        ("route_points", "(SELECT subject || '/' || source || '/' || start || '/' || name FROM workout_routes r WHERE r.id = route_id), "
            + "seq, time_ms, latitude, longitude, elevation, speed, course, horizontal_accuracy, vertical_accuracy"),
        ("electrocardiograms", "subject, source, start, \"end\", utc_offset, classification, symptoms, average_heart_rate, "
            + "sampling_hz, lead, samples, metadata, line, (SELECT attributes FROM devices d WHERE d.id = device_id), "
            + "(SELECT path FROM imports i WHERE i.id = import_id)"),
        ("ecg_samples", "(SELECT subject || '/' || source || '/' || start FROM electrocardiograms e WHERE e.id = ecg_id), seq, microvolts"),
        ("motion_sessions", "subject, device, start_ms, source, end_ms, start, \"end\", utc_offset, duration_s, active_s, average, "
            + "accomplishment, samples, end_reason, year, month, day, time, day_of_week, days_in_month, line, "
            + "(SELECT path FROM imports i WHERE i.id = import_id)"),
    ]

    static func normalized(_ rows: [[String]]) -> [String] {
        rows.map { row in
            row.map { cell -> String in
                guard cell != "NULL", let v = Double(cell), cell.contains(where: \.isNumber) else { return cell }
                return v.description
            }.joined(separator: " | ")
        }.sorted()
    }

    static func snapshot(sqlite db: URL) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: tables.map { t in
            (t.name, normalized(exactRows(db, "SELECT \(t.columns.replacingOccurrences(of: "\"end\"", with: "end")) FROM \(t.name)")))
        })
    }

    /// SQLite rows with REAL values as exact doubles (its text form keeps 15 digits only).
    static func exactRows(_ db: URL, _ sql: String) -> [[String]] {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(db.path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return [["cannot open"]] }
        defer { sqlite3_close(handle) }
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &stmt, nil) == SQLITE_OK else { return [[String(cString: sqlite3_errmsg(handle))]] }
        defer { sqlite3_finalize(stmt) }
        var rows: [[String]] = []
        while sqlite3_step(stmt) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(stmt)).map { i in
                switch sqlite3_column_type(stmt, i) {
                case SQLITE_NULL: return "NULL"
                case SQLITE_FLOAT: return sqlite3_column_double(stmt, i).description
                default: return String(cString: sqlite3_column_text(stmt, i))
                }
            })
        }
        return rows
    }

    static func snapshot(_ server: PostgresServer, _ database: String) throws -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: try tables.map { t in (t.name, normalized(try server.query(database, "SELECT \(t.columns) FROM \(t.name)"))) })
    }

    static func expectEqual(_ a: [String: [String]], _ b: [String: [String]], _ what: String) {
        for t in tables {
            let x = a[t.name] ?? [], y = b[t.name] ?? []
            let same = x == y
            let detail = same ? "" : "\(Set(x).subtracting(y).sorted().prefix(2)) / \(Set(y).subtracting(x).sorted().prefix(2))"
            #expect(same, "\(what): \(t.name) differs (\(x.count) vs \(y.count) rows): \(detail)")
        }
    }

    @Test func importEqualsSQLiteReimportAddsNothingAndReaggregateMatches() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.createDatabase("cohort")
        let url = server.url("cohort")
        let dir = E2E.tempDir()
        let sqlite = dir.appendingPathComponent("ref.sqlite")
        var transcript = ""
        for file in Self.samples.map({ E2E.samples.appendingPathComponent($0).path }) {
            for db in [url, sqlite.path] {
                let r = try E2E.run(["import", file, "--db", db, "--timezone", "Europe/Berlin", "--report", dir.appendingPathComponent("r.json").path],
                                    cwd: dir)
                #expect(r.code == E2E.importExit(ofSample: file), "\(file) → \(db == url ? "postgres" : "sqlite"): \(r.stderr)")
                transcript += r.stdout + r.stderr + (try String(contentsOf: dir.appendingPathComponent("r.json"), encoding: .utf8))
            }
        }
        // Nothing an import brings is left out: no "does not write" note, no "not stored" warning.
        #expect(!transcript.contains("does not write") && !transcript.contains("not stored"), "\(transcript)")
        let imported = try Self.snapshot(server, "cohort")
        #expect((imported["measurements"]?.count ?? 0) > 10_000)
        // The imports that grew the readings left the planner statistics of them (reltuples -1: never analyzed).
        #expect(try server.scalar("cohort", "SELECT reltuples > 10000 FROM pg_class WHERE oid = 'measurement_rows'::regclass") == "t")
        // What the Apple exports bring beside readings is there, not only equally absent.
        #expect(imported["subject_profiles"]?.count == 1 && imported["workout_routes"]?.count == 2)
        #expect(imported["route_points"]?.count == 15 && imported["electrocardiograms"]?.count == 1)
        #expect(imported["ecg_samples"]?.count == 1024)
        Self.expectEqual(imported, Self.snapshot(sqlite: sqlite), "import")
        #expect(try server.scalar("cohort", "SELECT count(*) FROM derived_pending") == "0")

        // Re-importing every file adds nothing and changes nothing.
        for file in Self.samples.map({ E2E.samples.appendingPathComponent($0).path }) {
            let r = try E2E.run(["import", file, "--db", url, "--timezone", "Europe/Berlin"], cwd: dir)
            #expect(r.code == E2E.importExit(ofSample: file), "\(file): \(r.stderr)")
            transcript += r.stderr
        }
        #expect(try server.scalar("cohort", "SELECT sum(new_rows) || ' ' || min(runs) FROM imports") == "0 2")
        var again = try Self.snapshot(server, "cohort")
        again["imports"] = imported["imports"]
        Self.expectEqual(again, imported, "re-import")

        // reaggregate with other settings: forecasts and alerts from the stored readings and events, in both stores.
        let settings = E2E.samples.appendingPathComponent("settings/reaggregate.yml").path
        for db in [url, sqlite.path] {
            let r = try E2E.run(["reaggregate", "--db", db, "--config", settings, "--timezone", "Europe/Berlin"], cwd: dir)
            #expect(r.code == 0, "\(r.stderr)")
            transcript += r.stderr
        }
        let derived = try Self.snapshot(server, "cohort")
        #expect((derived["forecasts"]?.count ?? 0) > 0 && (derived["alerts"]?.count ?? 0) > 0)
        var reference = Self.snapshot(sqlite: sqlite)
        reference["imports"] = derived["imports"]
        Self.expectEqual(derived, reference, "reaggregate")

        // The password: never in what the runs printed or reported, nor in printed pipelines or errors.
        let printed = try E2E.run(["import", E2E.samples.appendingPathComponent(Self.samples[0]).path, "--db", url, "--print-pipeline"])
        #expect(printed.stdout.contains("postgres") && printed.stdout.contains("***"))
        let refused = try E2E.run(["import", E2E.samples.appendingPathComponent(Self.samples[0]).path, "--timezone", "UTC",
                                   "--db", url.replacingOccurrences(of: PostgresServer.password, with: PostgresServer.password + "x")])
        #expect(refused.code == 1 && refused.stderr.contains("authentication failed"), "\(refused.stderr)")
        transcript += printed.stdout + printed.stderr + refused.stderr
        #expect(!transcript.isEmpty && !transcript.contains(PostgresServer.password))
    }

    /// Issue 9's rule, as in SQLite: a corrected value at a reading's natural key replaces the stored row
    /// (the later write wins, also for a key twice in one file), the imports log counts each change and
    /// the day is derived again; the two stores agree row by row after every step.
    @Test func aCorrectedValueReplacesTheReadingAsInSQLite() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.createDatabase("corrected")
        let url = server.url("corrected")
        let dir = E2E.tempDir()
        let sqlite = dir.appendingPathComponent("ref.sqlite")
        func importIntoBoth(_ file: URL, _ step: String) throws {
            for db in [url, sqlite.path] {
                let r = try E2E.run(["import", file.path, "--db", db, "--timezone", "UTC"], cwd: dir)
                #expect(r.code == 0, "\(step): \(r.stderr)")
            }
            Self.expectEqual(try Self.snapshot(server, "corrected"), Self.snapshot(sqlite: sqlite), step)
        }
        func stored() throws -> [String] {
            try server.query("corrected", "SELECT value FROM measurements WHERE metric = 'body_temperature' ORDER BY start").map { $0[0] }
        }
        let export = dir.appendingPathComponent("export.xml"), later = dir.appendingPathComponent("later.xml")
        try E2E.write(DerivedDataRuleTests.temperatureExport("36.9"), to: export)
        try importIntoBoth(export, "first import")
        try E2E.write(DerivedDataRuleTests.temperatureExport("37.1"), to: export)
        try importIntoBoth(export, "the same file corrected")
        #expect(try stored() == ["37.1", "37.4"])
        #expect(try server.scalar("corrected", "SELECT new_rows || ' ' || runs FROM imports") == "1 2")
        #expect(try server.scalar("corrected", "SELECT n || ' ' || mean FROM daily_summaries WHERE metric = 'body_temperature'") == "2 37.25")

        // Another file corrects the morning twice (37.3, then 37.2 after the evening's unchanged 37.4).
        let twice = DerivedDataRuleTests.temperatureExport("37.3").replacingOccurrences(of: "</HealthData>", with: """
             <Record type="HKQuantityTypeIdentifierBodyTemperature" sourceName="Thermometer" unit="degC" creationDate="2024-03-01 08:00:00 +0000" startDate="2024-03-01 08:00:00 +0000" endDate="2024-03-01 08:00:00 +0000" value="37.2"/>
            </HealthData>
            """)
        try E2E.write(twice, to: later)
        try importIntoBoth(later, "a later file")
        #expect(try stored() == ["37.2", "37.4"])
        #expect(try server.scalar("corrected", "SELECT new_rows FROM imports WHERE path = '\(later.path)'") == "2")
        #expect(try server.scalar("corrected", "SELECT count(*) FROM measurements m JOIN imports i ON i.id = m.import_id "
                                  + "WHERE i.path = '\(later.path)'") == "1")
        #expect(try server.scalar("corrected", "SELECT n || ' ' || mean FROM daily_summaries WHERE metric = 'body_temperature'") == "2 37.3")
        #expect(try server.scalar("corrected", "SELECT count(*) FROM derived_pending") == "0")
    }

    /// Motion sessions reach PostgreSQL through a pipeline (a replayed capture → motion-session → both
    /// stores in one run): the same rows as in SQLite, naming their import; running it again adds nothing.
    @Test func motionSessionsFromAPipelineMatchSQLite() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.createDatabase("motion")
        let dir = E2E.tempDir()
        let capture = E2E.samples.appendingPathComponent("imu/brushing_stream_tms.csv").path
        let pipeline = dir.appendingPathComponent("brushing.yml")
        try E2E.write("""
            sources:
              imu: { type: serial-imu, path: '\(capture)', start: '2026-01-05T07:30:00Z' }
            transforms:
              sessions: { type: motion-session, inputs: [imu], timezone: UTC }
            sinks:
              local: { type: sqlite, inputs: [sessions], path: ref.sqlite }
              shared: { type: postgres, inputs: [sessions], url: '\(server.url("motion"))' }
            """, to: pipeline)
        for run in 1...2 {
            let r = try E2E.run(["run", pipeline.path], cwd: dir)
            #expect(r.code == 3, "run \(run) (the capture's damaged samples are quarantined): \(r.stderr)")
            #expect(!r.stderr.contains("does not write"), "\(r.stderr)")
        }
        let stored = try Self.snapshot(server, "motion")
        #expect(stored["motion_sessions"]?.count == 2)
        #expect(try server.scalar("motion", "SELECT count(*) FROM motion_sessions m JOIN imports i ON i.id = m.import_id "
                                  + "WHERE i.path = '\(capture)' AND i.runs = 2") == "2")
        #expect(try server.scalar("motion", "SELECT count(*) FROM brushing_sessions") == "2")
        Self.expectEqual(stored, Self.snapshot(sqlite: dir.appendingPathComponent("ref.sqlite")), "motion sessions")
    }

    @Test func killedImportLeavesAConsistentStoreThatARerunCompletes() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.createDatabase("clean")
        try server.createDatabase("crashed")
        let dir = E2E.tempDir()
        let csv = try CrashConsistencyTests.generate(rows: 150_000, into: dir)
        // PGPASSWORD instead of a password in the URL.
        let env = ["PGPASSWORD": PostgresServer.password]
        #expect(try E2E.run(["import", csv.path, "--db", server.url("clean", password: false), "--timezone", "UTC"], env: env).code == 0)

        let p = Process()
        p.executableURL = E2E.binary
        p.arguments = ["import", csv.path, "--db", server.url("crashed", password: false), "--timezone", "UTC"]
        p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Kill without warning once the first transaction (100,000 rows) has committed.
        let deadline = Date().addingTimeInterval(120)
        while p.isRunning, Date() < deadline {
            if (try? server.scalar("crashed", "SELECT count(*) > 0 FROM measurements")) == "t" { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let killedMidway = p.isRunning
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(killedMidway, "the import finished before it could be killed; use a larger input")

        // Consistent: whole transactions only, the file still marked running, its subject pending.
        let partial = Int(try server.scalar("crashed", "SELECT count(*) FROM measurements")) ?? -1
        #expect(partial > 0 && partial < 150_000)
        #expect(try server.scalar("crashed", "SELECT status FROM imports") == "running")
        #expect(try server.scalar("crashed", "SELECT string_agg(DISTINCT subject, ',') FROM derived_pending") == "default")
        #expect(try server.scalar("crashed", "SELECT count(*) FROM measurements WHERE band IS NULL") == "0")

        let rerun = try E2E.run(["import", csv.path, "--db", server.url("crashed", password: false), "--timezone", "UTC"], env: env)
        #expect(rerun.code == 0, "\(rerun.stderr)")
        var crashed = try Self.snapshot(server, "crashed"), clean = try Self.snapshot(server, "clean")
        #expect(crashed["imports"]?.first?.contains("complete") == true)
        crashed["imports"] = nil
        clean["imports"] = nil
        Self.expectEqual(crashed, clean, "re-run after SIGKILL")
        #expect(try server.scalar("crashed", "SELECT count(*) FROM derived_pending") == "0")
    }
}
