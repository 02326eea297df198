import HealthPipeCore

/// Registry entry for the FHIR sink.
public let fhirSinkComponent = ComponentDescriptor(
    name: "fhir", role: .sink, family: "JSONFormats",
    summary: """
        FHIR R4 Bulk Data-style NDJSON for clinics and research platforms: a folder with Observation.ndjson (one \
        Observation per measurement: LOINC codes for CGM glucose 99504-3, meter glucose, heart rate, blood pressure, \
        weight, temperature…, UCUM quantities, local times with their offset) and Patient.ndjson (one Patient per \
        subject). Ids come from the natural keys; files are renamed into place when the run completes.
        """,
    options: [OptionDoc("path", "folder", required: true, "the output folder (created); Observation.ndjson and Patient.ndjson are replaced")],
    accepts: [.measurements, .profiles], produces: [],
    build: { b in
        FHIRSink(directory: b.path(try b.required("path")))
    })
