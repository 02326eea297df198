import Foundation
import HealthPipeCLI
import HealthPipeCore
import Hummingbird
import SQLiteStore

/// Nightscout's API v1 (`lib/api` of cgm-remote-monitor) over the store, the routes its uploaders
/// and followers use. Reads need the read role, uploads the write role (`AccessGuard`, before any
/// route runs). docs/serve.md lists the routes.
struct NightscoutRoutes {
    let settings: ServeSettings

    func add(to router: Router<ServeContext>) {
        let v1 = "/api/v1/"
        let batches = UploadBatches(settings: settings)
        // `.json`, `.csv`, `.tsv`, `.txt` (or nothing: JSON) choose the format, as Nightscout's extensions do.
        for (base, type, defaultCount) in [("entries", nil, 10), ("entries/sgv", "sgv", 10), ("entries/mbg", "mbg", 10),
                                           ("entries/current", "sgv", 1)] as [(String, String?, Int)] {
            for format in NightscoutEntryText.allCases {
                for path in format == .json ? [base, base + format.suffix] : [base + format.suffix] {
                    router.get(RouterPath(v1 + path)) { request, _ in
                        try await self.entries(request, type: type, defaultCount: defaultCount, format: format)
                    }
                }
            }
        }
        for path in ["treatments", "treatments.json"] {
            router.get(RouterPath(v1 + path)) { request, _ in try await self.treatments(request) }
        }
        for path in ["devicestatus", "devicestatus.json"] {
            router.get(RouterPath(v1 + path)) { request, _ in try await self.deviceStatus(request) }
        }
        for path in ["profile", "profile.json", "profiles"] {
            router.get(RouterPath(v1 + path)) { _, _ in try await self.profiles(current: false) }
        }
        router.get(RouterPath(v1 + "profile/current")) { _, _ in try await self.profiles(current: true) }
        for (collection, paths) in [("entries", ["entries", "entries.json"]), ("treatments", ["treatments", "treatments.json"]),
                                    ("devicestatus", ["devicestatus", "devicestatus.json"]), ("profile", ["profile", "profile.json"])] {
            let upload = NightscoutUpload(settings: settings, collection: collection, batches: batches)
            for path in paths {
                router.post(RouterPath(v1 + path)) { request, context in try await upload.handle(request, context) }
                // xDrip+ and Loop update treatments (and Loop its profile) with PUT: the import upserts alike.
                router.put(RouterPath(v1 + path)) { request, context in try await upload.handle(request, context) }
            }
        }
        addDeletes(to: router)
        NightscoutFood(settings: settings).add(to: router)
        NightscoutTimesRoutes(settings: settings).add(to: router)
        NightscoutEcho.add(to: router)
        router.get(RouterPath(v1 + "verifyauth")) { _, context in Self.verifyAuth(context) }
        // Loop's "verify" button asks this with the secret; Nightscout answers it to admins only.
        router.get(RouterPath(v1 + "experiments/test")) { _, context in
            guard context.role == .write else { throw HTTPError(.unauthorized, message: "this test needs the api-secret or a write token") }
            return JSONBody.response(["status": "ok"])
        }
    }

    // MARK: Deletes

    /// Nightscout's v1 deletes (`lib/api/entries`, `lib/api/treatments`), writers only (`AccessGuard`):
    /// `DELETE /entries/<id>`, `/entries/<type>` (`sgv`, `mbg`, `*` any) and `/entries` with a `find`;
    /// `DELETE /treatments/<id>` (`*` any) and `/treatments` with a `find`. Without a time in the
    /// query, the last 4 days, as its reads (and Nightscout's `deleteMany`). The answer is MongoDB's
    /// `{"acknowledged":true,"deletedCount":N}`.
    private func addDeletes(to router: Router<ServeContext>) {
        let v1 = "/api/v1/", deletion = NightscoutDeletion(settings: settings)
        for path in ["entries", "entries.json"] {
            router.delete(RouterPath(v1 + path)) { request, _ in
                NightscoutDeletion.answer(try await deletion.delete(deletion.documents("entries", NightscoutFind(request, defaultCount: 10))))
            }
        }
        @Sendable func deleteEntries(_ request: Request, spec: String) async throws -> Response {
            let spec = spec.hasSuffix(".json") ? String(spec.dropLast(5)) : spec
            let isID = NightscoutV3ID.second(of: spec) != nil
            let find = try NightscoutFind(request, defaultCount: 10, id: isID ? spec : nil)
            let type = isID || spec == "*" ? nil : spec
            return NightscoutDeletion.answer(try await deletion.delete(deletion.documents("entries", find, entryType: type)))
        }
        router.delete(RouterPath(v1 + "entries/:spec")) { request, context in try await deleteEntries(request, spec: context.parameters.require("spec")) }
        // The reads' own paths (`entries/sgv` …) match before `:spec`: the same delete there.
        for spec in ["sgv", "sgv.json", "mbg", "mbg.json"] {
            router.delete(RouterPath(v1 + "entries/" + spec)) { request, _ in try await deleteEntries(request, spec: spec) }
        }
        for path in ["treatments", "treatments.json"] {
            router.delete(RouterPath(v1 + path)) { request, _ in
                NightscoutDeletion.answer(try await deletion.delete(deletion.documents("treatments", NightscoutFind(request, defaultCount: 10))))
            }
        }
        router.delete(RouterPath(v1 + "treatments/:id")) { request, context in
            let id = try context.parameters.require("id")
            let find = try NightscoutFind(request, defaultCount: 10, id: id == "*" ? nil : id)
            return NightscoutDeletion.answer(try await deletion.delete(deletion.documents("treatments", find)))
        }
    }

    // MARK: Reads

    private func entries(_ request: Request, type: String?, defaultCount: Int, format: NightscoutEntryText) async throws -> Response {
        format.response(try await entryDocuments(NightscoutFind(request, defaultCount: defaultCount), type: type))
    }

    private func treatments(_ request: Request) async throws -> Response {
        let find = try NightscoutFind(request, defaultCount: request.uri.query?.contains("find") == true ? 1000 : 100)
        return JSONBody.response(try await treatmentDocuments(find))
    }

    private func deviceStatus(_ request: Request) async throws -> Response {
        JSONBody.response(try await deviceStatusDocuments(NightscoutFind(request, defaultCount: 10)))
    }

    /// The entries a query finds (of `type`, or the one its `find[type]` names), newest first, at most its `count`.
    func entryDocuments(_ find: NightscoutFind, type: String?) async throws -> [NightscoutEntry] {
        let wanted = type ?? find.conditions.first { $0.field == "type" && $0.op == "$eq" }?.value
        let limit = find.conditions.isEmpty ? find.count : NightscoutFind.maxCount
        let found = try await read { rows, subject in
            try NightscoutEntryReads.entries(rows, subject: subject, type: wanted, fromUTC: find.fromUTC, toUTC: find.toUTC, limit: limit)
        } ?? []
        return Array(found.lazy.filter { e in find.matches { e.field($0) } }.prefix(find.count))
    }

    func treatmentDocuments(_ find: NightscoutFind) async throws -> [[String: Any]] { try await treatmentGroups(find).map(\.doc) }

    /// The treatments a query finds, each with the rows it was made of.
    func treatmentGroups(_ find: NightscoutFind) async throws -> [NightscoutDocumentRows] {
        // Rows of one treatment merge, and conditions are checked on the merged documents: read more.
        let limit = find.conditions.isEmpty ? min(NightscoutFind.maxCount, find.count * 3 + 10) : NightscoutFind.maxCount
        let rows: [NightscoutRows.Row] = try await read { rows, subject in
            var out = try rows.events(subject: subject, fromUTC: find.fromUTC, toUTC: find.toUTC, limit: limit)
            for metric in NightscoutTreatments.metrics {
                out += try rows.readings(subject: subject, metric: metric, fromUTC: find.fromUTC, toUTC: find.toUTC, limit: limit, origin: .treatment)
            }
            return out
        } ?? []
        return Array(NightscoutTreatments.groups(rows).filter { d in find.matches { d.doc[$0] } }.prefix(find.count))
    }

    func deviceStatusDocuments(_ find: NightscoutFind) async throws -> [[String: Any]] { try await deviceStatusGroups(find).map(\.doc) }

    /// The device statuses a query finds, each with the readings it was made of.
    func deviceStatusGroups(_ find: NightscoutFind) async throws -> [NightscoutDocumentRows] {
        let limit = find.conditions.isEmpty ? min(NightscoutFind.maxCount, find.count * NightscoutDeviceStatus.metrics.count) : NightscoutFind.maxCount
        let rows: [NightscoutRows.Row] = try await read { rows, subject in
            try NightscoutDeviceStatus.metrics.flatMap {
                try rows.readings(subject: subject, metric: $0, fromUTC: find.fromUTC, toUTC: find.toUTC, limit: limit, origin: .notTreatment)
            }
        } ?? []
        return Array(NightscoutDeviceStatus.groups(rows).filter { d in find.matches { d.doc[$0] } }.prefix(find.count))
    }

    private func profiles(current: Bool) async throws -> Response {
        let doc = try await read { rows, subject in try rows.profile(subject: subject) }?.flatMap(NightscoutProfileDocument.document)
        if current { return JSONBody.response(doc ?? NSNull()) }
        return JSONBody.response(doc.map { [$0] } ?? [])
    }

    /// Runs a read on the store's reader threads; nil when there is no database yet (nothing uploaded).
    func read<T: Sendable>(_ body: @escaping @Sendable (NightscoutRows, String) throws -> T) async throws -> T? {
        let settings = self.settings
        do {
            return try await StoreWork.read {
                guard FileManager.default.fileExists(atPath: settings.database) else { return nil }
                let subject = try UploadImport.subject(settings.subject, database: settings.database)
                return try body(try NightscoutRows(path: settings.database), subject)
            }
        } catch let failure as UploadImport.Failure {
            throw HTTPError(.conflict, message: failure.description)
        }
    }

    /// `/api/v1/verifyauth`: what the credentials allow, as Nightscout answers it.
    static func verifyAuth(_ context: ServeContext) -> Response {
        let role = context.role
        return JSONBody.response(["status": 200, "message": [
            "canRead": role != nil, "canWrite": role == .write, "isAdmin": role == .write,
            "message": role != nil ? "OK" : "UNAUTHORIZED", "rolefound": role != nil ? "FOUND" : "NOTFOUND", "permissions": "ROLE",
        ] as [String: Any]])
    }
}
