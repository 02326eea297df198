import HealthPipeCore

/// Registry entry for the Apple Health source.
public let appleHealthComponent = ComponentDescriptor(
    name: AppleHealthSource.format, role: .source, family: AppleHealthPlugin.family,
    summary: """
        Apple Health export (export.zip or export.xml, any size, streamed). Records become measurements in \
        canonical units (glucose mg/dL, temperature degC, distance km, energy kcal), category types (sleep stages, \
        mindful sessions…) timed measurements in minutes, insulin deliveries insulin events (basal/bolus), food \
        correlations meal events, workouts exercise events, activity rings daily measurements, Me the subject \
        profile; MetadataEntry children and the device are kept as JSON. Re-importing adds nothing.
        """,
    options: AppleHealthOptions.docs,
    produces: [.measurements, .events, .profiles, .routes, .electrocardiograms],
    detect: { ExportLocator.detect($0) },
    diagnose: { ExportLocator.diagnose($0) },
    // Words of export.xml's start, for the nearest-format hint.
    signature: ["<healthdata", "<exportdate", "<record", "hkquantitytypeidentifier", "sourcename=", "creationdate="],
    build: { b in
        AppleHealthSource(options: try AppleHealthOptions.read(b))
    })
