import Foundation
import HealthPipeCore

/// Writes FHIR R4 resources as Bulk Data-style NDJSON: one file per resource type in a folder
/// (`Observation.ndjson`, `Patient.ndjson`), one resource per line. Each measurement becomes an
/// Observation coded in LOINC where one exists (`FHIRCodes`) with a UCUM quantity and its local
/// time; each subject a Patient (with sex and birth date when a subject profile says them).
/// Resource ids are derived from the natural key, so a re-export names the same reading the same
/// way. Files are written beside the target and renamed into place when the run completes.
public final class FHIRSink: Sink, OutputChecking {
    let directory: String
    private var observations: NDJSONFile?
    private var patients: [Symbol: SubjectProfile?] = [:]
    private var patientOrder: [Symbol] = []
    private var writer = JSONWriter(capacity: 1 << 20)
    private(set) var observationCount: Int64 = 0

    public init(directory: String) { self.directory = directory }

    static let fileNames = ["Observation.ndjson", "Patient.ndjson"]

    public func checkOutputs() throws {
        for name in Self.fileNames { _ = try OutputPath.check(directory + "/" + name, what: "FHIR output") }
    }

    public var fileRoles: [FileRole] {
        [FileRole(.output, directory, what: "FHIR output folder")]
            + Self.fileNames.map { FileRole(.output, directory + "/" + $0, what: "FHIR output") }
    }

    public func open(run: RunInfo, context: StageContext) throws {
        observations = try NDJSONFile(path: directory + "/Observation.ndjson")
    }

    public func write(_ batch: RecordBatch, context: StageContext) throws {
        for p in batch.profiles {
            if patients[p.subject] == nil { patientOrder.append(p.subject) }
            patients[p.subject] = .some(p)
        }
        for m in batch.measurements {
            if patients[m.subject] == nil {
                patients[m.subject] = .some(nil)
                patientOrder.append(m.subject)
            }
            FHIRObservation.encode(m, into: &writer)
            observationCount += 1
            if writer.bytes.count > 1 << 20 { try flush() }
        }
    }

    public func close(outcome: RunOutcome, report: RunReport, context: StageContext) throws {
        guard let observations else { return }
        try flush()
        var w = JSONWriter(capacity: 4096)
        for subject in patientOrder { FHIRPatient.encode(subject: subject, profile: patients[subject] ?? nil, into: &w) }
        let patientFile = try NDJSONFile(path: directory + "/Patient.ndjson")
        try patientFile.append(w.bytes)
        // Only a completed run replaces the previous export.
        if outcome == .completed {
            try observations.commit()
            try patientFile.commit()
        } else {
            observations.discard()
            patientFile.discard()
        }
        self.observations = nil
    }

    private func flush() throws {
        guard !writer.bytes.isEmpty else { return }
        try observations?.append(writer.bytes)
        writer.reset()
    }
}

/// One FHIR output file: written beside its target and renamed over it on commit (`AtomicFile`),
/// so a failed or interrupted run leaves the previous export whole.
final class NDJSONFile {
    private var file: AtomicFile?

    init(path: String) throws { file = try AtomicFile(path: path, what: "FHIR output") }

    func append(_ bytes: [UInt8]) throws { try file?.write(bytes) }

    func commit() throws {
        defer { file = nil }
        try file?.commit()
    }

    /// Drops the temporary file (AtomicFile removes it when released).
    func discard() { file = nil }
}
