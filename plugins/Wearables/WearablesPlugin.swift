import HealthPipeCore

/// Fitness wearables' own exports (issue 37), one folder per vendor. Each file family is detected by
/// its content and read as a stream; docs/formats.md lists the families and their time rules.
public enum WearablesPlugin {
    public static let components: [ComponentDescriptor] = [
        fitbitHeartRateComponent, fitbitRestingHeartRateComponent, fitbitMinuteSeriesComponent, fitbitSleepComponent,
        garminActivitiesComponent,
        garminFITComponent,
        googleFitActivityComponent, googleFitAllDataComponent,
    ]
}
