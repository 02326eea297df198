/// The person's food database (SQLite only): Nightscout's `food` collection — foods and quick picks
/// its food editor and Careportal keep, each a document of the fields its client sent.
extension StoreTables {
    public static let foods = TableDescription("foods", columns: [
        .required("subject", .sortedText),
        .required("id", .sortedText), // the document's `_id`: 24 hex digits
        .required("document", .text), // the document as JSON, `_id` and `created_at` included
        .required("updated_at", .int64), // UTC epoch seconds of the last write
    ], primaryKey: ["subject", "id"], in: [.sqlite])
}
