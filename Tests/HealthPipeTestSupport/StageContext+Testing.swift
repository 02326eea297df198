import HealthPipeCore

/// What every test that runs a stage by hand needs (swift-nio's NIOTestUtils is the model): one
/// place that builds a stage's context, so a new StageContext field is added here once.
extension StageContext {
    /// A context for stage `type` (named `name`, default the type) with error policy `policy`, rejects
    /// going to `quarantine` (default: thrown away) and a fresh progress meter.
    public static func forTesting(_ type: String, name: String? = nil, policy: ErrorPolicy = .fail,
                                  quarantine: QuarantineWriter = QuarantineWriter(path: "/dev/null"),
                                  progress: ProgressMeter = ProgressMeter()) -> StageContext {
        StageContext(name: name ?? type, type: type, policy: policy, quarantine: quarantine, progress: progress)
    }
}
