import CLibXML2

/// What the SAX callbacks drive: element starts and ends with libxml2's raw attribute array
/// (5 pointers per attribute: local name, prefix, URI, value start, value end), and errors.
protocol SAXElementHandler: AnyObject {
    func startElement(_ name: UnsafePointer<UInt8>, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int)
    func endElement(_ name: UnsafePointer<UInt8>)
}

/// A libxml2 SAX2 push parser (xmlCreatePushParserCtxt + xmlParseChunk) fed large chunks: no DOM,
/// constant memory. Bound to `ExportHandler` (C callbacks cannot be generic); the calls are direct. No network, no DTD loading, no entity substitution: with the DOCTYPE cut out by
/// `PrologFilter` only the five predefined entities and character references are ever decoded.
/// XML_PARSE_HUGE lifts libxml2's 10 MB text limit (an attribute over 10 MB is read); the element
/// size and nesting depth are bounded by `RecoveringParser` and `ExportHandler` instead.
final class SAXPushParser {
    private var ctxt: xmlParserCtxtPtr?
    private let box: ParserBox
    /// The first error libxml2 reported (fatal errors stop the parse).
    var error: (line: Int, message: String)? { box.error }

    init(handler: ExportHandler) {
        box = ParserBox(handler: handler)
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        // The box outlives its parser: the element callbacks borrow it (and its handler) without
        // the retain and release per element that taking the reference would cost.
        sax.startElementNs = { ctx, localname, _, _, _, _, nbAttributes, _, attributes in
            guard let ctx, let localname else { return }
            Unmanaged<ParserBox>.fromOpaque(ctx)._withUnsafeGuaranteedRef {
                $0.handler.startElement(localname, attributes, count: Int(nbAttributes))
            }
        }
        sax.endElementNs = { ctx, localname, _, _ in
            guard let ctx, let localname else { return }
            Unmanaged<ParserBox>.fromOpaque(ctx)._withUnsafeGuaranteedRef { $0.handler.endElement(localname) }
        }
        sax.serror = { ctx, err in
            guard let ctx, let err else { return }
            let box = Unmanaged<ParserBox>.fromOpaque(ctx).takeUnretainedValue()
            let e = err.pointee
            // Warnings (level 1) are not errors; keep the first real one, or the first fatal one after
            // errors that were not (an undefined namespace prefix): that one stopped the parse.
            guard e.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let fatal = e.level.rawValue >= XML_ERR_FATAL.rawValue
            if box.error == nil || (fatal && !box.errorIsFatal) {
                var message = e.message.map { String(cString: $0) } ?? "XML error \(e.code)"
                while message.last == "\n" || message.last == " " { message.removeLast() }
                // libxml2 appends the offending bytes on a second line ("Bytes: 0xE9 0x22 …"): keep one line.
                message = message.split(separator: "\n").joined(separator: "; ")
                box.error = (Int(e.line), message)
                box.errorIsFatal = fatal
            }
            // After a fatal error libxml2 keeps consuming the chunk (without callbacks): note where the
            // error was and stop it there, so recovery knows which element broke.
            if fatal, let raw = e.ctxt {
                let ctxt = raw.assumingMemoryBound(to: xmlParserCtxt.self)
                if box.errorOffset == nil { box.errorOffset = Int64(xmlByteConsumed(ctxt)) }
                xmlStopParser(ctxt)
            }
        }
        let opaque = Unmanaged.passUnretained(box).toOpaque()
        ctxt = xmlCreatePushParserCtxt(&sax, opaque, nil, 0, nil)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue | XML_PARSE_HUGE.rawValue)
        xmlCtxtUseOptions(ctxt, options)
    }

    deinit { if let ctxt { xmlFreeParserCtxt(ctxt) } }

    /// Parses the next bytes; false once the parser stopped on a fatal error (or was stopped).
    @discardableResult
    func feed(_ bytes: UnsafeRawBufferPointer, final: Bool = false) -> Bool {
        guard let ctxt, box.error == nil || ctxt.pointee.wellFormed != 0, ctxt.pointee.disableSAX == 0 else { return false }
        var rest = bytes
        // xmlParseChunk takes an Int32 size: feed at most 1 GiB at a time.
        repeat {
            let n = min(rest.count, 1 << 30)
            let base = rest.baseAddress?.assumingMemoryBound(to: CChar.self)
            let last = final && n == rest.count
            let rc = xmlParseChunk(ctxt, base, Int32(n), last ? 1 : 0)
            if rc != 0 || ctxt.pointee.disableSAX != 0 { return false }
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
        } while !rest.isEmpty
        return true
    }

    /// Stops parsing from inside a callback (the element is too deep to be real).
    func stop() {
        guard let ctxt else { return }
        if box.errorOffset == nil { box.errorOffset = consumed }
        xmlStopParser(ctxt)
    }

    /// Bytes consumed when the first fatal error (or `stop`) happened.
    var errorOffset: Int64? { box.errorOffset }

    /// The line the parser has reached.
    var line: Int { ctxt.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0 }

    /// Bytes of input the parser has consumed (exact inside element callbacks).
    var consumed: Int64 { ctxt.map { Int64(xmlByteConsumed($0)) } ?? 0 }
}

/// The object the C callbacks reach through their `void *` context.
final class ParserBox {
    /// Held by the `RecoveringParser` that owns the parser too.
    unowned(unsafe) let handler: ExportHandler
    var error: (line: Int, message: String)?
    var errorIsFatal = false
    var errorOffset: Int64?
    init(handler: ExportHandler) { self.handler = handler }
}
