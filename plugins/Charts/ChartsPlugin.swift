import HealthPipeCore

/// Everything plugins/Charts registers: the chart-data sinks.
public enum ChartsPlugin {
    public static var components: [ComponentDescriptor] { [chartSinkComponent, historyChartComponent] }
}
