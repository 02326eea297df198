import HealthPipeCore

/// Everything plugins/HealthLog registers: the source of hand-made entries (seed 004's report
/// form, seeds 000/002's insulin, meal, exercise and episode entries).
public enum HealthLogPlugin {
    public static var components: [ComponentDescriptor] { [healthEntryComponent] }
}
