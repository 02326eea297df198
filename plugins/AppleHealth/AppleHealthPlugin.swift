import HealthPipeCore

/// Everything the AppleHealth family registers (the BuiltinPlugins list includes this).
public enum AppleHealthPlugin {
    public static let family = "AppleHealth"
    public static var components: [ComponentDescriptor] { [appleHealthComponent] }
}
