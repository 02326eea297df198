import AppleHealth
import CSVFormats
import Charts
import Foundation
import HealthLog
import HealthPipeAnalytics
import HealthPipeCore
import JSONFormats
import PostgresStore
import SQLiteStore
import SerialIMU
import Wearables

/// The one explicit list of everything HealthPipe registers: each plugin family (one SwiftPM
/// target under plugins/, or HealthPipeAnalytics) with its components, plus the declarative YAML
/// adapters found in plugins/adapters and on the plugin path.
public enum BuiltinPlugins {
    public static var families: [(name: String, components: [ComponentDescriptor])] {
        [
            ("HealthPipeAnalytics", AnalyticsPlugin.components),
            ("CSVFormats", CSVFormatsPlugin.components),
            ("SQLiteStore", [sqliteSinkComponent, sqliteSourceComponent]),
            ("JSONFormats", JSONFormatsPlugin.components),
            ("AppleHealth", AppleHealthPlugin.components),
            ("SerialIMU", SerialIMUPlugin.components),
            ("Charts", ChartsPlugin.components),
            ("HealthLog", HealthLogPlugin.components),
            ("PostgresStore", PostgresStorePlugin.components),
            ("Wearables", WearablesPlugin.components),
        ]
    }

    /// The adapters shipped with HealthPipe: plugins/adapters in the source tree this binary was built from.
    public static var bundledAdaptersDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("adapters").path
    }

    /// Folders searched for YAML adapters: the bundled ones, `HEALTHPIPE_PLUGIN_PATH` (colon-separated), then `extra`.
    public static func adapterDirectories(extra: [String] = [],
                                          environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var dirs = [bundledAdaptersDirectory]
        if let env = environment["HEALTHPIPE_PLUGIN_PATH"] { dirs += env.split(separator: ":").map(String.init) }
        dirs += extra
        var seen = Set<String>()
        return dirs.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
    }

    /// The compiled-in components alone, no adapter folder read: for a caller that needs a built-in
    /// step (the stored band scheme of a view), not formats — reading the YAML adapters costs a view
    /// command a sixth of its time.
    public static func builtInRegistry() throws -> ComponentRegistry { try compiledIn.get() }

    /// Built once per process: the compiled-in components never change while it runs.
    private static let compiledIn = Result { () throws -> ComponentRegistry in
        var registry = ComponentRegistry()
        for (_, components) in families { for c in components { try registry.register(c) } }
        return registry
    }

    /// The compiled-in format that claims `sniff` above any score a YAML adapter's detection gives
    /// (`MappedCSVAdapters.detectionScore`) and reads it without finding formats at run time: no adapter
    /// can take such a file, so importing it needs no adapter read. Nil when an adapter might.
    public static func claimedWithoutAdapters(_ sniff: FileSniff, builtIn: ComponentRegistry) -> ComponentDescriptor? {
        guard let best = builtIn.bestDetection(of: sniff), best.score > MappedCSVAdapters.detectionScore,
              !best.component.findsFormatsAtRun else { return nil }
        return best.component
    }

    /// Builds the registry. A broken adapter file or a duplicate name is an error, not a silent skip.
    public static func registry(pluginPaths: [String] = [],
                                environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ComponentRegistry {
        var registry = try builtInRegistry()
        for dir in adapterDirectories(extra: pluginPaths, environment: environment) {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
                if pluginPaths.contains(dir) { throw RegistryError(message: "plugin path \(dir) is not a folder") }
                continue
            }
            for c in try MappedCSVAdapters.load(directory: dir) { try registry.register(c) }
        }
        return registry
    }
}
