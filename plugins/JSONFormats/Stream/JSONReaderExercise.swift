import HealthPipeCore

/// The JSON reader on its own, for the `json-reader` fuzz target (Fuzz/Targets): reads every object
/// of `path` with the given buffer limits and touches every parsed value (text, number, time, path)
/// as the mappers do. Returns the objects read, so a replayed seed shows it really went through.
package enum JSONReaderExercise {
    package static func run(path: String, chunk: Int, maxDocument: Int, envelope: JSONEnvelope? = nil) -> Int {
        let table = JSONPathTable(["sgv", "date", "dateString", "type", "created_at", "bolus.amount", "store.#.units", "time"])
        guard let reader = try? JSONDocumentReader(path: path, table: table, chunk: chunk, maxDocument: maxDocument, envelope: envelope) else { return 0 }
        var documents = 0, checksum = 0
        try? reader.forEach(progress: { checksum &+= $0 }, { doc in
            documents += 1
            checksum &+= doc.rawText().utf8.count &+ Int(doc.line) &+ doc.children(of: nil).count
            for n in doc.nodes.indices {
                checksum &+= (doc.string(node: n)?.utf8.count ?? 0) &+ doc.path(of: n).utf8.count
                if doc.number(node: n) != nil { checksum &+= 1 }
                let bytes = doc.valueBytes(n)
                if let t = JSONScalars.isoTime(bytes) { checksum &+= Int(truncatingIfNeeded: t.milliseconds) }
                if let t = JSONScalars.javaDate(bytes) { checksum &+= Int(truncatingIfNeeded: t.wallMilliseconds) }
                if let t = JSONScalars.epochMilliseconds(bytes) { checksum &+= Int(truncatingIfNeeded: t) }
            }
            for slot in 0..<table.count { checksum &+= doc.path(ofSlot: slot).utf8.count &+ (doc.present(slot) ? 1 : 0) }
        }, problem: { checksum &+= Int($0.line) &+ $0.raw.utf8.count &+ $0.reason.utf8.count },
           member: { checksum &+= $0.utf8.count &+ $1.utf8.count })
        checksum &+= reader.contentHash.utf8.count
        return checksum == Int.min ? 0 : documents
    }
}
