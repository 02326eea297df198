import Foundation
import Hummingbird
import Logging
import NIOCore
import SQLiteStore

/// `healthpipe serve`: one process serving the app and the Nightscout-compatible API over a store.
/// Routes are added by their own files (`StatusRoutes`, …); this type only wires the middleware
/// (security headers outermost, so errors carry them too; then access) and runs until SIGTERM or
/// SIGINT, when it stops accepting, lets requests in flight finish, and returns.
public struct HealthServer: Sendable {
    public let settings: ServeSettings
    let forms: FormGuard

    public init(settings: ServeSettings) throws {
        try BindPolicy.check(host: settings.host, secret: settings.secret)
        self.settings = settings
        forms = FormGuard()
    }

    func router() -> Router<ServeContext> {
        // HEAD of every GET route answers as GET does, without the body.
        let router = Router(context: ServeContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: SecurityHeaders())
        router.add(middleware: AccessGuard(settings: settings, forms: forms))
        StatusRoutes(settings: settings).add(to: router)
        NightscoutRoutes(settings: settings).add(to: router)
        PebbleRoute(settings: settings).add(to: router)
        NightscoutCountRoute(routes: NightscoutRoutes(settings: settings)).add(to: router)
        PropertiesRoute(settings: settings).add(to: router)
        AuthorizationRequestRoute(settings: settings).add(to: router)
        NightscoutV3Routes(settings: settings).add(to: router)
        SignIn(settings: settings, forms: forms).add(to: router)
        AppRoutes(settings: settings, forms: forms).add(to: router)
        return router
    }

    /// Runs until a termination signal; `onListening` gets the bound port (the tests bind port 0).
    /// The database's connections are kept open between requests while it runs (`ConnectionPool`).
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        ConnectionPool.keep(settings.database)
        defer { ConnectionPool.stopKeeping(settings.database) }
        var logger = Logger(label: "healthpipe.serve")
        logger.logLevel = .warning
        let app = Application(
            router: router(),
            server: .http1(configuration: .init(additionalChannelHandlers: [HTTPLayerAnswers()], idleTimeout: .seconds(settings.idleSeconds))),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "HealthPipe"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        try await app.runService()
    }
}
