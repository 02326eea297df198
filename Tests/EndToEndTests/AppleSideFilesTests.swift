import Foundation
import Testing

/// Apple Health's side data: HRV beat-to-beat lists, workout routes (GPX files and inline points)
/// and ECG recordings, from the zip and from the unpacked folder.
@Suite struct AppleSideFilesTests {
    let zip = E2E.samples.appendingPathComponent("apple-health/side-files_export.zip")
    let xml = E2E.samples.appendingPathComponent("apple-health/side-files/apple_health_export/export.xml")

    @Test(arguments: ["zip", "xml"]) func routesECGAndBeats(_ kind: String) throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let file = kind == "zip" ? zip.path : xml.path
        let r = try E2E.run(["import", file, "--db", db.path])
        #expect(r.code == 0, "\(r.stderr)")
        // The route file is linked to the workout that names it, with every point.
        let want1: [[String]] = [["workout-routes/route_2020-12-03_8.10am.gpx", "12", "Sam’s Apple Watch", "1", "0", "12", "12.0", "3.15"]]
        #expect(E2E.query(db, """
            SELECT r.name, r.points, r.source, r.workout_start = e.start, r.utc_offset, count(p.seq), min(p.elevation), max(p.speed)
            FROM workout_routes r JOIN events e ON e.kind = 'exercise' AND e.subject = r.subject AND e.source = r.source
            JOIN route_points p ON p.route_id = r.id GROUP BY r.id
            """) == want1)
        let want2: [[String]] = [["1606983001000", "51.501", "-0.1419", "4.2"]]
        #expect(E2E.query(db, "SELECT time_ms, latitude, longitude, horizontal_accuracy FROM route_points WHERE seq = 0") == want2)
        // The ECG: classification, rate, 1,024 voltages; name and birth date are not kept.
        let want3: [[String]] = [["2020-12-03 08:40:12", "2", "Sinus Rhythm", "512.0", "Lead I", "1024", "1.90", "0", "1024"]]
        #expect(E2E.query(db, """
            SELECT datetime(start, 'unixepoch'), end - start, classification, sampling_hz, lead, samples, json_extract(metadata, '$."Software Version"'),
                   metadata LIKE '%Sam Sample%', (SELECT count(*) FROM ecg_samples s WHERE s.ecg_id = e.id)
            FROM electrocardiograms e
            """) == want3)
        let want4: [[String]] = [["Watch5,4"]]
        #expect(E2E.query(db, "SELECT json_extract(d.attributes, '$.hardware') FROM electrocardiograms e JOIN devices d ON d.id = e.device_id") == want4)
        // The HRV record keeps its beat-to-beat list, each beat at its instant (8:04:11.23 AM on the record's day).
        let want5: [[String]] = [["48.2", "4", "1606982651230", "62"]]
        #expect(E2E.query(db, """
            SELECT value, json_array_length(metadata, '$.beats'), json_extract(metadata, '$.beats[0].t_ms'), json_extract(metadata, '$.beats[0].bpm')
            FROM measurements WHERE metric = 'heart_rate_variability_sdnn'
            """) == want5)
        // What is still not read is said: the clinical record element and the clinical-records folder.
        #expect(r.stderr.contains("ClinicalRecord"), "\(r.stderr)")
        #expect(r.stderr.contains("side files not imported: 1 in clinical-records/"), "\(r.stderr)")
        #expect(try E2E.run(["import", file, "--db", db.path]).code == 0)
        #expect(E2E.scalar(db, "SELECT sum(new_rows) FROM imports") == "0")
    }

    @Test func inlineRouteOfAnOlderExport() throws {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite")
        let file = E2E.samples.appendingPathComponent("apple-health/healthkit-to-sqlite_tests_export.xml").path
        #expect(try E2E.run(["import", file, "--db", db.path]).code == 0)
        let want6: [[String]] = [["inline", "2", "2016-11-14 14:25:44", "1"]]
        #expect(E2E.query(db, "SELECT name, points, datetime(start, 'unixepoch'), workout_start IS NOT NULL FROM workout_routes") == want6)
        let want7: [[String]] = [["0", "37.7777", "2.48034", "NULL"], ["1", "37.7777", "2.48034", "NULL"]]
        #expect(E2E.query(db, "SELECT seq, latitude, speed, course FROM route_points ORDER BY seq") == want7)
    }
}
