import HealthPipeCore

/// Filter mode's sink: NDJSON records on standard output and nothing else there (the run summary
/// and every message go to stderr). The same encoder and record shapes as the `ndjson` sink.
public let stdoutSinkComponent = ComponentDescriptor(
    name: "stdout", role: .sink, family: "JSONFormats",
    summary: """
        Filter mode: writes every record as NDJSON (the ndjson sink's shapes) to standard output, which carries nothing \
        else; messages and the run summary go to stderr. See docs/scale-out.md.
        """,
    options: [
        OptionDoc("include", "list of measurements | events | daily | metrics | forecasts | alerts | profiles", default: "all",
                  "which record kinds to write"),
    ],
    accepts: .all, produces: [],
    build: { b in
        NDJSONSink(path: "-", include: try NDJSONSink.kinds(b.value("include"), builder: b))
    })
