import HealthPipeCore

/// The motion-session components of HealthPipeAnalytics (their chart sink, `history-chart`, is in plugins/Charts).
public enum SessionsPlugin {
    public static var components: [ComponentDescriptor] { [motionSessionComponent, brushSessionComponent] }
}
