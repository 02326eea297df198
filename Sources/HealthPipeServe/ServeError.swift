/// A reason `serve` cannot start (exit 2, as every configuration mistake).
public enum ServeError: Error, CustomStringConvertible {
    case configuration(String)

    public var description: String {
        switch self {
        case .configuration(let reason): return reason
        }
    }
}
