import HealthPipeCore
import JSONFormats

/// The JSON object reader alone (JSONDocumentReader + JSONDocumentParser): the first byte picks the
/// first read size (1–48 bytes), the second how many doublings an object may grow to before it is
/// refused, so objects cut at every offset, buffer growth and the size limit are reached by short inputs;
/// the second byte's top bit reads a top-level object's "Data Points" array as the documents (`JSONEnvelope`).
enum JSONReaderTarget {
    static func run(_ data: UnsafeRawBufferPointer) -> Int {
        guard data.count >= 2 else { return 0 }
        let chunk = Int(data[0] % 48) + 1
        let maxDocument = chunk << Int(data[1] % 10)
        let path = "/fuzz/reader.json"
        ByteInput.provide(Array(data.dropFirst(2)), as: path)
        return JSONReaderExercise.run(path: path, chunk: chunk, maxDocument: maxDocument,
                                      envelope: data[1] & 0x80 != 0 ? JSONEnvelope(arrayKey: "Data Points") : nil)
    }
}
