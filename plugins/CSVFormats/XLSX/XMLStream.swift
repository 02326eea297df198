import CLibXML2
import Foundation

/// What an `XMLStream` calls: element starts (local name and attributes), ends, and text.
protocol XMLStreamHandler: AnyObject {
    func start(_ name: UnsafePointer<UInt8>, _ attributes: XMLAttributes)
    func end(_ name: UnsafePointer<UInt8>)
    func text(_ bytes: UnsafeRawBufferPointer)
}

/// libxml2's SAX2 attribute array viewed by index (local name, value bytes).
struct XMLAttributes {
    let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    func name(_ i: Int) -> UnsafePointer<UInt8> { base![5 * i]! }
    func value(_ i: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base![5 * i + 3]!, count: base![5 * i + 4]! - base![5 * i + 3]!)
    }
    /// The value of the attribute with local name `name`, decoded.
    func string(_ name: StaticString) -> String? {
        for i in 0..<count where XMLName.equals(self.name(i), name) {
            return XMLName.decode(value(i))
        }
        return nil
    }
}

enum XMLName {
    @inline(__always)
    static func equals(_ p: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
        memcmp(p, literal.utf8Start, literal.utf8CodeUnitCount + 1) == 0
    }

    /// Attribute text; without entity substitution libxml2 hands `&amp;` over as `&#38;`.
    static func decode(_ b: UnsafeRawBufferPointer) -> String {
        let s = String(decoding: b, as: UTF8.self)
        return s.contains("&#38;") ? s.replacingOccurrences(of: "&#38;", with: "&") : s
    }
}

/// A libxml2 SAX2 push parser for the XML parts of an Office workbook, fed the chunks ZIPFoundation
/// inflates: no DOM, constant memory. No network, no DTD, no entity expansion.
final class XMLStream {
    private var ctxt: xmlParserCtxtPtr?
    private let box: XMLStreamBox
    var error: String? { box.error }

    init(handler: XMLStreamHandler) {
        box = XMLStreamBox(handler: handler)
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { ctx, localname, _, _, _, _, nbAttributes, _, attributes in
            guard let ctx, let localname else { return }
            Unmanaged<XMLStreamBox>.fromOpaque(ctx).takeUnretainedValue().handler
                .start(localname, XMLAttributes(base: attributes, count: Int(nbAttributes)))
        }
        sax.endElementNs = { ctx, localname, _, _ in
            guard let ctx, let localname else { return }
            Unmanaged<XMLStreamBox>.fromOpaque(ctx).takeUnretainedValue().handler.end(localname)
        }
        sax.characters = { ctx, chars, len in
            guard let ctx, let chars, len > 0 else { return }
            Unmanaged<XMLStreamBox>.fromOpaque(ctx).takeUnretainedValue().handler
                .text(UnsafeRawBufferPointer(start: chars, count: Int(len)))
        }
        sax.serror = { ctx, err in
            guard let ctx, let err else { return }
            let box = Unmanaged<XMLStreamBox>.fromOpaque(ctx).takeUnretainedValue()
            guard err.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, box.error == nil else { return }
            let message = err.pointee.message.map { String(cString: $0) } ?? "XML error \(err.pointee.code)"
            box.error = "line \(err.pointee.line): " + message.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        ctxt = xmlCreatePushParserCtxt(&sax, Unmanaged.passUnretained(box).toOpaque(), nil, 0, nil)
        xmlCtxtUseOptions(ctxt, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue))
    }

    deinit { if let ctxt { xmlFreeParserCtxt(ctxt) } }

    /// Parses the next bytes; false once the parser stopped on an error.
    @discardableResult
    func feed(_ bytes: UnsafeRawBufferPointer, final: Bool = false) -> Bool {
        guard let ctxt, box.error == nil else { return false }
        let rc = xmlParseChunk(ctxt, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), final ? 1 : 0)
        return rc == 0 && box.error == nil
    }
}

final class XMLStreamBox {
    let handler: XMLStreamHandler
    var error: String?
    init(handler: XMLStreamHandler) { self.handler = handler }
}
