import BuiltinPlugins
import Foundation
import HealthPipeCore
import Testing

@Suite struct RegistryTests {
    let pluginsDir = E2E.packageRoot.appendingPathComponent("plugins")

    @Test func everyPluginFolderIsRegistered() throws {
        let registry = try BuiltinPlugins.registry(environment: [:])
        let folders = try FileManager.default.contentsOfDirectory(atPath: pluginsDir.path)
            .filter { name in
                var isDir: ObjCBool = false
                return FileManager.default.fileExists(atPath: pluginsDir.appendingPathComponent(name).path, isDirectory: &isDir) && isDir.boolValue
            }
            .filter { $0 != "BuiltinPlugins" && $0 != "adapters" }
        #expect(!folders.isEmpty)
        for folder in folders {
            #expect(registry.families.contains(folder), "plugins/\(folder) is not in BuiltinPlugins")
        }
        let adapters = try FileManager.default.contentsOfDirectory(atPath: pluginsDir.appendingPathComponent("adapters").path)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
        #expect(!adapters.isEmpty)
        for file in adapters {
            #expect(registry.families.contains("adapters/\(file)"), "plugins/adapters/\(file) is not registered")
        }
    }

    @Test func namesAreUniqueAndDuplicatesAreRefused() throws {
        var total = 0
        for (_, components) in BuiltinPlugins.families { total += components.count }
        let registry = try BuiltinPlugins.registry(environment: [:])
        #expect(registry.components.count >= total)
        var again = registry
        let clarity = registry.component(named: "dexcom-clarity")!
        #expect(throws: RegistryError.self) { try again.register(clarity) }
    }

    @Test func userAdapterFoldersAreLoaded() throws {
        let dir = E2E.tempDir()
        try E2E.write("""
        name: my-meter
        description: A test meter log
        detect: { header_contains: [when, mgdl] }
        timestamp: { column: when, format: "%Y-%m-%d %H:%M" }
        source: my meter
        columns:
          mgdl: { metric: glucose, unit: mg/dL }
        """, to: dir.appendingPathComponent("my-meter.yaml"))
        let viaFlag = try BuiltinPlugins.registry(pluginPaths: [dir.path], environment: [:])
        #expect(viaFlag.component(named: "my-meter") != nil)
        let viaEnv = try BuiltinPlugins.registry(environment: ["HEALTHPIPE_PLUGIN_PATH": dir.path])
        #expect(viaEnv.component(named: "my-meter")?.family == "adapters/my-meter.yaml")
    }
}
