import Hummingbird

/// Each request's context: Hummingbird's core storage plus what `AccessGuard` found the request
/// may do. Routes read `role`; they never look at credentials themselves.
public struct ServeContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// nil until `AccessGuard` has run, and for a request that may do nothing.
    public var role: AccessRole?
    /// Whether the app's forms write for this caller (`AccessGuard.Caller.writesForms`): the app
    /// shows its forms only then, so a reader never meets a form that would be refused.
    public var writesForms = false
    /// The one person a person's token may see (`healthpipe serve token … --subject`); nil: anyone.
    public var person: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// Uploads and forms are small; a larger body is refused (413) before it is read whole.
    public var maxUploadSize: Int { ServeLimits.maxBodyBytes }
}

/// The server's limits, in one place (docs/serve.md, "Security model").
public enum ServeLimits {
    /// A day of 1-minute readings as Nightscout JSON is ~300 KB; uploaders send far less at a time.
    public static let maxBodyBytes = 4 * 1024 * 1024
    /// Documents in one upload: a day of 1-minute readings is 1,440; uploaders send batches far
    /// smaller. Bounds what one request costs the writer, its answer and the quarantine.
    public static let maxDocuments = 10_000
    /// A connection that sends nothing for this long is closed (slow clients, idle keep-alives).
    public static let idleSeconds: Int64 = 30
}
