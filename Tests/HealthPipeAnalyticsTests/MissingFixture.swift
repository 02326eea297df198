/// A fixture file the repository should hold is not there: one clear failure naming it.
struct MissingFixture: Error, CustomStringConvertible {
    var path: String
    var description: String { "missing test fixture \(path) (fixtures live in Tests/Fixtures; see its PROVENANCE.md)" }
}
