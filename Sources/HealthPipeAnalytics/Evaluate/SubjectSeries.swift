import HealthPipeCore

/// One subject's glucose readings and treatments, collected for offline evaluation.
public struct SubjectSeries: Sendable {
    public var subject: String
    public var times: [Int64] = []
    public var offsets: [Int32] = []
    public var values: [Double] = []
    /// (time, carbs g, insulin U)
    public var treatments: [(time: Int64, carbs: Double, insulin: Double)] = []

    public init(subject: String) { self.subject = subject }

    /// Sorts readings and treatments by time and drops repeated reading times.
    public mutating func normalise() {
        let order = times.indices.sorted { times[$0] < times[$1] }
        var t: [Int64] = [], o: [Int32] = [], v: [Double] = []
        for i in order where t.last != times[i] {
            t.append(times[i])
            o.append(offsets[i])
            v.append(values[i])
        }
        (times, offsets, values) = (t, o, v)
        treatments.sort { $0.time < $1.time }
    }

    /// The reading within ±150 s of `time`, if any.
    public func value(near time: Int64) -> Double? {
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] < time - 150 { lo = mid + 1 } else { hi = mid }
        }
        var best: Double?, bestDistance = Int64.max
        var i = lo
        while i < times.count && times[i] <= time + 150 {
            if abs(times[i] - time) < bestDistance {
                best = values[i]
                bestDistance = abs(times[i] - time)
            }
            i += 1
        }
        return best
    }
}

/// Collects the glucose readings and meal/insulin events of a run, per subject.
public final class SeriesCollector: Sink {
    public private(set) var series: [String: SubjectSeries] = [:]
    let metric: Symbol

    public init(metric: Symbol = Metrics.glucose) { self.metric = metric }

    public func open(run: RunInfo, context: StageContext) throws {}

    public func write(_ batch: RecordBatch, context: StageContext) throws {
        for m in batch.measurements where m.metric == metric {
            let key = m.subject.text
            series[key, default: SubjectSeries(subject: key)].times.append(m.start)
            series[key]!.offsets.append(m.utcOffset)
            series[key]!.values.append(m.value)
        }
        for e in batch.events where e.kind == .meal || e.kind == .insulin {
            let key = e.subject.text
            series[key, default: SubjectSeries(subject: key)].treatments.append((e.start, e.carbs ?? 0, e.insulin ?? 0))
        }
    }

    public func close(outcome: RunOutcome, report: RunReport, context: StageContext) throws {
        for k in series.keys { series[k]!.normalise() }
    }
}
