/// Schema version 10: motion sessions name the import they came from (`import_id`, as every other
/// imported table does), so a replayed capture's sessions are traced to its `imports` row.
enum SchemaV10 {
    static let migration = Migration(version: 10, name: "motion sessions' import", sql: """
        ALTER TABLE motion_sessions ADD COLUMN import_id INTEGER;
        """)
}
