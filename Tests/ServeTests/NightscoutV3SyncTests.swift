import Foundation
import Testing

/// AndroidAPS's NSClientV3 against the server, request by request as it syncs (plugins/sync
/// nsclientV3: LoadStatusWorker, LoadLastModificationWorker, DataSyncWorker's uploads, then
/// LoadBgWorker/LoadTreatmentsWorker's first load and history): what it uploads lands with its
/// units and times, once, and reading back ends.
@Suite struct NightscoutV3SyncTests {
    typealias S = NightscoutSupport
    static let uploads: [(collection: String, file: String)] = [
        ("entries", "aaps-v3-entry.json"), ("treatments", "aaps-v3-bolus.json"), ("treatments", "aaps-v3-carbs.json"),
        ("treatments", "aaps-v3-tempbasal.json"), ("devicestatus", "aaps-v3-devicestatus.json"),
    ]

    @Test func androidAPSUploadsLandOnceAndReadBack() throws {
        let db = S.database()
        let server = try S.server(db)
        var aaps = AAPSClient(server: server)
        // The interceptor's first request carries an empty Bearer: a 401 makes it ask for a JWT.
        #expect(try aaps.send("/api/v3/status").status == 401)
        let auth = try aaps.authorize(AAPSClient.accessToken())
        let granted = try #require(auth.json as? [String: Any], "\(auth.text)")
        #expect(auth.status == 200)
        #expect(granted["sub"] as? String == "aaps")
        let iat = try #require(granted["iat"] as? Int), exp = try #require(granted["exp"] as? Int)
        #expect(exp - iat == 3600)

        let status = try #require(try aaps.result("/api/v3/status") as? [String: Any])
        #expect(status["apiVersion"] as? String == "3.0.3-alpha")
        #expect((status["storage"] as? [String: Any])?["storage"] as? String == "sqlite")
        let permissions = try #require(status["apiPermissions"] as? [String: String])
        #expect(["devicestatus", "entries", "food", "profile", "settings", "treatments"].allSatisfy { permissions[$0] == "crud" })
        let empty = try #require(try aaps.result("/api/v3/lastModified") as? [String: Any])
        #expect((empty["collections"] as? [String: Any])?.isEmpty == true)

        var identifiers: [String] = []
        for u in Self.uploads {
            let r = try aaps.send("/api/v3/" + u.collection, method: "POST", body: AAPSClient.fixture(u.file))
            let answer = try #require(r.json as? [String: Any], "\(u.file): \(r.text)")
            #expect(r.status == 201, "\(u.file): \(r.text)")
            #expect(answer["status"] as? Int == 201 && answer["lastModified"] is Int)
            identifiers.append(try #require(answer["identifier"] as? String))
        }
        #expect(Set(identifiers).count == 5, "a bolus and its carbs at one instant are two documents")
        let once = try S.snapshot(db)
        // A device status carries no utcOffset (RemoteDeviceStatus has none): UTC without --timezone.
        #expect(try S.sqlite(db, "SELECT metric, source, start, \"end\", utc_offset, value, unit FROM measurements ORDER BY metric") == """
            basal_rate|AAPS|1709280300|1709282100|3600|1.2|U/h
            carbs_on_board|openaps://samsung SM-G970F|1709280300|1709280300|0|45.0|g
            glucose|Dexcom|1709280000|1709280000|3600|112.0|mg/dL
            insulin_on_board|openaps://samsung SM-G970F|1709280300|1709280300|0|4.5|U
            pump_battery|openaps://samsung SM-G970F|1709280300|1709280300|0|75.0|%
            pump_reservoir|openaps://samsung SM-G970F|1709280300|1709280300|0|120.5|U
            uploader_battery|openaps://samsung SM-G970F|1709280300|1709280300|0|85.0|%

            """)
        #expect(try S.sqlite(db, "SELECT kind, subtype, source, start, utc_offset, insulin_u, carbs_g FROM events ORDER BY kind") == """
            insulin|bolus|AAPS|1709280123|3600|4.5|
            meal||AAPS|1709280123|3600||45.0

            """)

        // AndroidAPS re-sends what it has no answer for: Nightscout's deduplication, nothing added.
        for (u, id) in zip(Self.uploads, identifiers) {
            let r = try aaps.send("/api/v3/" + u.collection, method: "POST", body: AAPSClient.fixture(u.file))
            let answer = try #require(r.json as? [String: Any])
            #expect(r.status == 200 && answer["isDeduplication"] as? Bool == true && answer["identifier"] as? String == id, "\(u.file): \(r.text)")
        }
        #expect(try S.snapshot(db) == once)

        let modified = try #require((try aaps.result("/api/v3/lastModified") as? [String: Any])?["collections"] as? [String: Int])
        #expect(modified == ["entries": 1709280000000, "treatments": 1709280300000, "devicestatus": 1709280300000])

        // First load (LoadBgWorker): date$gt pages, oldest first, until a page is empty.
        let since = Int64(Date().timeIntervalSince1970 * 1000) - 100 * 86_400_000
        let sgvs = try aaps.documents("/api/v3/entries?sort=date&date$gt=\(min(since, 1709200000000))&limit=500")
        #expect(sgvs.count == 1)
        #expect(sgvs.first?["sgv"] as? Int == 112 && sgvs.first?["date"] as? Int == 1709280000000 && sgvs.first?["utcOffset"] as? Int == 60)
        #expect(sgvs.first?["identifier"] as? String == identifiers[0] && sgvs.first?["isValid"] as? Bool == true)
        #expect(try aaps.documents("/api/v3/entries?sort=date&date$gt=1709280000000&limit=500").isEmpty, "the newest date read ends the paging")
        #expect(try aaps.documents("/api/v3/entries?sort$desc=date&type=sgv").count == 1)

        // LoadTreatmentsWorker: created_at$gt as ISO text, then history since the ETag.
        let treatments = try aaps.documents("/api/v3/treatments?sort=created_at&created_at$gt=2024-03-01T00:00:00.000Z&limit=500")
        #expect(treatments.map { $0["identifier"] as? String } == [identifiers[1], identifiers[2], identifiers[3]])
        #expect(treatments.map { $0["date"] as? Int } == [1709280123000, 1709280123000, 1709280300000])
        #expect(treatments[0]["insulin"] as? Double == 4.5 && treatments[1]["carbs"] as? Double == 45)
        #expect(treatments[2]["eventType"] as? String == "Temp Basal" && treatments[2]["absolute"] as? Double == 1.2 && treatments[2]["duration"] as? Int == 30)
        let history = try aaps.send("/api/v3/treatments/history/1709200000000?limit=500")
        #expect(history.headers["etag"] == "W/\"1709280300000\"")
        #expect(((history.json as? [String: Any])?["result"] as? [Any])?.count == 3)
        #expect(try aaps.documents("/api/v3/treatments/history/1709280300000?limit=500").isEmpty, "history since the ETag ends")
        let statuses = try aaps.documents("/api/v3/devicestatus/history/1709200000000")
        #expect(statuses.count == 1 && statuses.first?["identifier"] as? String == identifiers[4])
        #expect(((statuses.first?["openaps"] as? [String: Any])?["iob"] as? [String: Any])?["iob"] as? Double == 4.5)

        // An update (DataSyncWorker's nsUpdate): PATCH with what changed; date and utcOffset left out.
        let patch = #"{"eventType":"Meal Bolus","insulin":4.5,"notes":"pizza","isValid":true,"identifier":"\#(identifiers[1])","app":"AAPS"}"#
        #expect(try aaps.send("/api/v3/treatments/" + identifiers[1], method: "PATCH", body: Data(patch.utf8)).status == 200)
        let bolus = try #require(try aaps.result("/api/v3/treatments/" + identifiers[1]) as? [String: Any])
        #expect(bolus["notes"] as? String == "pizza" && bolus["insulin"] as? Double == 4.5 && bolus["date"] as? Int == 1709280123000)
        #expect(try S.sqlite(db, "SELECT count(*), note FROM events WHERE kind = 'insulin'") == "1|pizza\n")
        // A delete (nsRemove) takes the carbs only: the bolus of the same instant is another document.
        #expect(try aaps.send("/api/v3/treatments/" + identifiers[2], method: "DELETE").status == 200)
        #expect(try aaps.send("/api/v3/treatments/000000000000000000000000", method: "DELETE").status == 404)
        #expect(try S.sqlite(db, "SELECT kind FROM events") == "insulin\n")
        #expect(server.stop() == 0)
    }
}
