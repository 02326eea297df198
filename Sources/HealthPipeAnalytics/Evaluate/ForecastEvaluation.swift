import HealthPipeCore

/// The evaluation protocol of reference/analytics.md §7, per subject: the first 7 days (from the
/// subject's first reading) train, forecasts are scored against the reading `horizon` minutes
/// later for targets from 60 minutes into day 8 on. The models run exactly as `predict` runs
/// them, streaming: a ridge model fits itself on the training week when the stream reaches day 8.
public enum ForecastEvaluation {
    public struct Result: Sendable {
        /// Model → pooled scores over every subject.
        public var overall: [ForecastModelKind: ErrorScores] = [:]
        /// Model → subject → scores.
        public var perSubject: [ForecastModelKind: [String: ErrorScores]] = [:]

        /// The mean over subjects of each subject's RMSE (the BGLP papers' convention).
        public func rmseMeanOfSubjects(_ model: ForecastModelKind) -> Double {
            // Summed in subject order, so the result is the same on every run.
            let values = (perSubject[model] ?? [:]).sorted { $0.key < $1.key }.map(\.value).filter { $0.n > 0 }.map(\.rmse)
            return values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
        }
    }

    public static let trainingSeconds: Int64 = 7 * 86_400
    public static let scoringDelaySeconds: Int64 = 3600

    public static func run(series: [SubjectSeries], models: [ForecastModelKind], horizonMinutes: Int = 30, withinEnvelope: Bool = true) -> Result {
        var result = Result()
        for model in models {
            var pooled = ErrorScores()
            var bySubject: [String: ErrorScores] = [:]
            for s in series {
                let scores = evaluate(s, model: model, horizonMinutes: horizonMinutes, withinEnvelope: withinEnvelope)
                bySubject[s.subject] = scores
                pooled = pooled + scores
            }
            result.overall[model] = pooled
            result.perSubject[model] = bySubject
        }
        return result
    }

    /// `withinEnvelope: false` scores the model as published (its reference numbers), not as it is shown.
    public static func evaluate(_ s: SubjectSeries, model: ForecastModelKind, horizonMinutes: Int, withinEnvelope: Bool = true) -> ErrorScores {
        var scores = ErrorScores()
        guard let first = s.times.first else { return scores }
        let steps = horizonMinutes / 5
        let horizon = Int64(steps * 300)
        let scoreFrom = first + trainingSeconds + scoringDelaySeconds
        let forecaster = SubjectForecaster(model: model, steps: steps, withinEnvelope: withinEnvelope)
        var nextTreatment = 0
        for i in s.times.indices {
            let t = s.times[i]
            while nextTreatment < s.treatments.count && s.treatments[nextTreatment].time <= t {
                let d = s.treatments[nextTreatment]
                forecaster.addTreatment(time: d.time, carbs: d.carbs, insulin: d.insulin)
                nextTreatment += 1
            }
            // A forecast the envelope shortened has no point at the horizon: scored like none.
            guard let f = forecaster.add(time: t, utcOffset: s.offsets[i], value: s.values[i]), f.values.count == steps else { continue }
            let target = f.origin + horizon
            guard target >= scoreFrom, let actual = s.value(near: target) else { continue }
            scores.add(prediction: f.values[steps - 1], reference: actual)
        }
        return scores
    }
}
