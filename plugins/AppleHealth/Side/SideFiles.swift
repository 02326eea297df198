import Foundation
import HealthPipeCore
import ZipReading

/// The files an export carries beside export.xml — `workout-routes/*.gpx` and
/// `electrocardiograms/*.csv` — read after the XML (so each route finds the workout that names it),
/// from the zip or from the folders beside an unpacked export.xml. Other side folders
/// (`clinical-records/`) are counted in a warning.
struct SideFiles {
    let options: AppleHealthOptions
    let input: ExportInput
    let links: [String: SideData.RouteLink]
    /// A side file is read whole; a route or ECG is well under a MiB, so anything past this is not one.
    static let maxSideFileBytes: UInt64 = 256 << 20

    struct File {
        /// Path relative to the export's folder (`workout-routes/route_….gpx`).
        var relative: String
        /// Where records point back to: `export.zip#apple_health_export/…` or the file's own path.
        var provenance: String
        var read: () throws -> Data
    }

    func read(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let files = try list()
        var batch = RecordBatch()
        var unread: [String: Int] = [:]
        let wantRoutes = options.types.includes(identifier: "HKWorkoutRouteTypeIdentifier", name: "workout_route")
        let wantECG = options.types.includes(identifier: "HKDataTypeIdentifierElectrocardiogram", name: "electrocardiogram")
        for f in files {
            if context.shouldStop { break }
            let folder = f.relative.split(separator: "/").first.map(String.init) ?? ""
            let lower = f.relative.lowercased()
            do {
                if folder == "workout-routes", lower.hasSuffix(".gpx") {
                    guard wantRoutes else { continue }
                    if let r = try route(f) { batch.routes.append(r) }
                } else if folder == "electrocardiograms", lower.hasSuffix(".csv") {
                    guard wantECG else { continue }
                    batch.electrocardiograms.append(try ECGFile.read(f.read(), file: f, options: options))
                } else {
                    unread[folder.isEmpty ? f.relative : folder + "/", default: 0] += 1
                    continue
                }
            } catch let e as SideFileError {
                try context.reject(RowError(file: f.provenance, line: e.line, reason: e.reason, raw: ""))
            }
            if batch.count >= 4 {
                try emit(batch)
                batch = RecordBatch()
            }
        }
        if !batch.isEmpty { try emit(batch) }
        if !unread.isEmpty {
            context.warn("\(options.path): side files not imported: "
                         + unread.sorted { $0.key < $1.key }.map { "\($0.value) in \($0.key)" }.joined(separator: ", "))
        }
    }

    /// A GPX route, linked to the workout whose FileReference names it.
    private func route(_ f: File) throws -> WorkoutRoute? {
        let points = try GPXFile.points(f.read(), file: f.provenance)
        guard let first = points.map(\.time).min(), let last = points.map(\.time).max() else { return nil }
        let link = links["/" + f.relative] ?? links[f.relative]
        let start = CivilDate.floorDiv(first, 1000)
        let offset = options.zone.map { Int32($0.secondsFromGMT(for: Date(timeIntervalSince1970: Double(start)))) } ?? link?.offset ?? 0
        return WorkoutRoute(subject: options.subject, source: link?.source ?? Symbol("Apple Health"), workoutStart: link?.workoutStart,
                            start: start, end: CivilDate.floorDiv(last, 1000), utcOffset: offset, name: f.relative,
                            points: points, device: link?.device ?? .empty, provenance: Provenance(file: Symbol(f.provenance), line: 1))
    }

    /// Side files of the export, in name order.
    private func list() throws -> [File] {
        if let entryName = input.entryName {
            guard let archive = input.archive else { return [] }
            let base = entryName.split(separator: "/").dropLast().joined(separator: "/")
            let prefix = base.isEmpty ? "" : base + "/"
            var out: [File] = []
            for entry in archive.entries where entry.isFile && entry.path != entryName && entry.path.hasPrefix(prefix) {
                let relative = String(entry.path.dropFirst(prefix.count))
                guard relative.contains("/") else { continue }  // export_cda.xml and other top-level files
                let path = input.path
                out.append(File(relative: relative, provenance: path + "#" + entry.path, read: {
                    do { return Data(try archive.contents(of: entry, limit: Self.maxSideFileBytes)) } catch {
                        throw SideFileError(line: 0, reason: "cannot read \(entry.path) from the zip: \(error)")
                    }
                }))
            }
            return out.sorted { $0.relative < $1.relative }
        }
        let folder = URL(fileURLWithPath: input.path).deletingLastPathComponent()
        var out: [File] = []
        for sub in ["workout-routes", "electrocardiograms", "clinical-records"] {
            let dir = folder.appendingPathComponent(sub)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { continue }
            for name in names.sorted() where !name.hasPrefix(".") {
                let url = dir.appendingPathComponent(name)
                out.append(File(relative: sub + "/" + name, provenance: url.path, read: {
                    do { return try Data(contentsOf: url) } catch {
                        throw SideFileError(line: 0, reason: "cannot read the file: \(error.localizedDescription)")
                    }
                }))
            }
        }
        return out
    }
}

/// A side file that cannot be read; quarantined with the file and line, the rest of the export still lands.
struct SideFileError: Error {
    var line: Int64
    var reason: String
}
