import HealthPipeCore

/// The effective settings of each derivation step, canonically: a database's derived rows follow
/// one setting, and these texts are how two pipelines (or a pipeline and a database) compare.
private func names(_ set: Set<Symbol>) -> String { "[" + set.map(\.text).sorted().joined(separator: ",") + "]" }

extension ClassifyTransform: DerivationStep {
    public var fingerprint: String {
        let bands = scheme.bands.map { b in b.label.text + (b.upper.map { (b.inclusive ? "<=" : "<") + "\($0)" } ?? "") }
        return "classify bands=[\(bands.joined(separator: ","))] target=\(scheme.bands[scheme.target].label.text) metrics=\(names(metrics))"
    }
}

extension DailyTransform: DerivationStep {
    public var fingerprint: String {
        let period: String
        switch per {
        case nil: period = "none"
        case .day?: period = "day"
        case .period(let from, let to)?: period = "period(\(from.map(CivilDate.isoDate(fromDays:)) ?? "first")..\(to.map(CivilDate.isoDate(fromDays:)) ?? "last"))"
        }
        return "daily hypo<\(hypoBelow) hyper>\(hyperAbove) metrics=\(names(glucoseMetrics)) per=\(period) "
            + "grid=\(options.gridStepSeconds)s gap=\(options.maxGapSeconds)s conga=\(options.congaHours.sorted())"
            // Only when not the default, so settings stored before the option existed still match.
            + (markerSeconds == EpisodeSpan.defaultMarkerSeconds ? "" : " episode=\(markerSeconds)s")
            + (sourcePriority.preferred.isEmpty ? "" : " source_priority=[\(sourcePriority.preferred.joined(separator: ","))]")
    }
}

extension ResampleTransform: DerivationStep {
    public var fingerprint: String {
        "resample step=\(step)s gap=\(maxGap)s metrics=\(names(metrics)) source=\(source.text)"
    }
}

extension PredictTransform: DerivationStep {
    public var fingerprint: String {
        "predict model=\(model.rawValue) steps=\(steps) issue=\(issue.rawValue) metric=\(metric.text)"
    }
}

extension AlertsTransform: DerivationStep {
    public var fingerprint: String {
        let s = settings
        return "alerts low=\(s.low) high=\(s.high) min=\(s.minDurationMinutes)m horizon=\(s.horizonMinutes)m "
            + "model=\(s.model.rawValue) metric=\(s.metric.text)"
    }
}
