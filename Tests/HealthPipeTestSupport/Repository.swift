import Foundation

/// Where a test finds the repository's files (samples/, Tests/Fixtures/, docs/, plugins/adapters/): one
/// answer for every test target, from this file's own place in the tree.
public enum Repository {
    /// The package root: this file is Tests/HealthPipeTestSupport/Repository.swift.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A file or folder by its path from the root, e.g. `Repository.url("Tests/Fixtures/real")`.
    public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// The same, as a path.
    public static func path(_ relative: String) -> String { url(relative).path }
}
