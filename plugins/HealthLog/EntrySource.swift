import Foundation
import HealthPipeCore

/// A source of one hand-made entry: a health report (its values as measurements of their metric,
/// source `report`) or an insulin dose, meal, exercise or illness/stress episode (an event, source
/// `manual`), each with its id so the store can replace or delete it later. `healthpipe reports add`
/// and `healthpipe add` run it into the `sqlite` sink; a pipeline can too.
public final class EntrySource: Source {
    /// The entry's records, as built from the options (what a command checks before the run).
    public let batch: RecordBatch
    init(batch: RecordBatch) { self.batch = batch }

    public func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        context.progress.addRecords(Int64(batch.count))
        try emit(batch)
    }
}

public let healthEntryComponent = ComponentDescriptor(
    name: "health-entry", role: .source, family: "HealthLog",
    summary: """
        One hand-made entry: a health report (two or more values, each metric=value[unit]:importance 1–5, and an \
        optional note) or an insulin dose, meal, exercise or illness/stress episode, with a stable id (default: made \
        from the kind and local time). What `healthpipe reports add` and `healthpipe add` run. See docs/reports.md.
        """,
    options: [
        OptionDoc("kind", "report | insulin | meal | exercise | illness | stress", required: true, example: "illness",
                  "what the entry is"),
        OptionDoc("at", "time", required: true, example: "2020-01-01T08:00:00Z", "when: 2024-03-05T20:00:00+01:00, or a local time with `timezone`; at most a day ahead"),
        OptionDoc("id", "text", default: "from the kind and local time", "the entry's id (an entry with this id is replaced)"),
        OptionDoc("values", "list of metric=value[unit]:importance", "a report's values (at least two)"),
        OptionDoc("note", "text", "free text (a report's note)"),
        OptionDoc("units", "number", "insulin units"),
        OptionDoc("basal", "boolean", default: "false", "basal rather than bolus insulin"),
        OptionDoc("carbs", "number", "a meal's carbohydrates (g)"),
        OptionDoc("protein", "number", "a meal's protein (g)"),
        OptionDoc("fat", "number", "a meal's fat (g)"),
        OptionDoc("name", "text", "a meal's or an exercise's name"),
        OptionDoc("minutes", "number", "an exercise's duration"),
        OptionDoc("intensity", "light | medium | heavy", "an exercise's intensity"),
        OptionDoc("end", "time", "an episode's (or exercise's) end; an episode without one is open until ended"),
        OptionDoc("timezone", "IANA zone or ±HH:MM", default: "the run's --timezone, else the person's zone in the database the pipeline writes", "zone of times without an offset"),
        OptionDoc("subject", "text", default: "the run's --subject", "whose entry this is"),
    ],
    produces: [.measurements, .events, .reports, .entries],
    build: { b in
        let o = try b.options(EntryOptions.self)
        return EntrySource(batch: try o.records(b, now: Int64(Date().timeIntervalSince1970)))
    })
