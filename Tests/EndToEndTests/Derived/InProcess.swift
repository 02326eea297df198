import ArgumentParser
import Foundation
import HealthPipeCLI

/// Runs a healthpipe command inside the test process (the same code as the binary, without a
/// process start per run): for tests that run hundreds of imports.
enum InProcess {
    @discardableResult
    static func healthpipe(_ args: [String]) -> Int32 {
        do {
            var command = try HealthPipeMain.parseAsRoot(args)
            try command.run()
            return 0
        } catch {
            return HealthPipeMain.exitCode(for: error).rawValue
        }
    }
}
