import HealthPipeCore

/// Everything the CSVFormats family registers (the BuiltinPlugins list includes this).
public enum CSVFormatsPlugin {
    public static let family = "CSVFormats"
    public static var components: [ComponentDescriptor] {
        [dexcomClarityComponent, libreViewComponent, careLinkComponent, dexcomClarityXLSXComponent, tandemComponent, exportZipComponent,
         healthReportsComponent, nightscoutExporterComponent, withingsRawComponent, diaguardComponent]
    }
}
