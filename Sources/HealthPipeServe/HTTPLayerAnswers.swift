import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The answers the HTTP layer writes itself, before any route or middleware runs — Hummingbird's
/// bare `400` with no body for a request it cannot parse — get the promised headers
/// (`SecurityHeaders.apply`) and a JSON reason like every other error. A response that went through
/// the routes already carries a Content-Security-Policy and passes unchanged.
final class HTTPLayerAnswers: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The body to write before the `.end` of a response whose head this handler completed.
    private var pendingBody: ByteBuffer?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.code >= 200 && head.headerFields[.contentSecurityPolicy] == nil:
            SecurityHeaders.apply(to: &head.headerFields)
            if head.status.code >= 400, head.headerFields[.contentLength] == "0" {
                let reason = head.status.code == 400 ? "malformed HTTP request" : head.status.reasonPhrase
                let body = context.channel.allocator.buffer(string: #"{"error":{"message":"\#(reason)"}}"#)
                head.headerFields[.contentType] = "application/json; charset=utf-8"
                head.headerFields[.contentLength] = String(body.readableBytes)
                pendingBody = body
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end(let trailers) where pendingBody != nil:
            context.write(wrapOutboundOut(.body(pendingBody!)), promise: nil)
            pendingBody = nil
            context.write(wrapOutboundOut(.end(trailers)), promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }
}
