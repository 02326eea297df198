import HTTPTypes
import Hummingbird

/// Headers on every response, errors included: a strict Content-Security-Policy unless a route set
/// its own (the app's pages allow their own script by nonce), no sniffing, no framing, no referrer.
struct SecurityHeaders: RouterMiddleware {
    typealias Context = ServeContext
    static let defaultPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    func handle(_ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            // Anything else is our fault: say so without details, and log what it was.
            context.logger.error("\(request.method) \(request.uri.path): \(error)")
            response = try HTTPError(.internalServerError, message: "internal error").response(from: request, context: context)
        }
        if response.headers[.contentSecurityPolicy] == nil { response.headers[.contentSecurityPolicy] = Self.defaultPolicy }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[.cacheControl] = response.headers[.cacheControl] ?? "no-store"
        return response
    }
}
