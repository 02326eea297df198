import HealthPipeCore

/// A source name with its symbol and whether the stage's `sources` option lets it in.
final class SourceInfo {
    let symbol: Symbol
    let name: String
    let included: Bool
    init(symbol: Symbol, name: String, included: Bool) {
        self.symbol = symbol
        self.name = name
        self.included = included
    }
}
