/// What `healthpipe serve` was told: where the store is, where to listen, and who may do what.
public struct ServeSettings: Sendable {
    /// The SQLite store's absolute path.
    public var database: String
    public var host: String
    /// 0 listens on any free port (the tests do; the line printed at start says which).
    public var port: Int
    public var secret: APISecret?
    /// Reads without credentials (Nightscout's "readable" default role), for followers' apps.
    public var openReads: Bool
    /// Seconds a connection may stay silent before it is closed (slow clients, idle keep-alives).
    public var idleSeconds: Int64 = ServeLimits.idleSeconds
    /// Whose data the Nightscout API reads and writes: for a request by a person's token that person
    /// (`CallerPerson`, bound by `AccessGuard` and carried onto the store's threads by `StoreWork`), so
    /// no route can reach past it by reading the settings it was built with; else `--subject`, and
    /// nil for the store's only subject, `default` for a new store (the import's rule).
    public var subject: String? {
        get { CallerPerson.current ?? configuredSubject }
        set { configuredSubject = newValue }
    }
    private var configuredSubject: String?
    /// The zone of a person without one of their own (`--timezone`): the app's clock and uploads without an offset.
    public var timezone: String?

    public init(database: String, host: String = "127.0.0.1", port: Int = 8080, secret: APISecret? = nil, openReads: Bool = false) {
        self.database = database
        self.host = host
        self.port = port
        self.secret = secret
        self.openReads = openReads
    }

    var isLoopback: Bool { BindPolicy.isLoopback(host) }
}
