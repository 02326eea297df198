/// What a request may do: read the store, or also write to it. Nightscout's roles "readable" and
/// "api:*:create" (the uploaders'), reduced to the two this server needs.
public enum AccessRole: String, Sendable, Comparable {
    case read, write

    public static func < (a: AccessRole, b: AccessRole) -> Bool { a == .read && b == .write }
}
