/// Schema version 11: each person's zone over time (`subject_zones`), which typed times, "now",
/// reminders and the Nightscout API's offsets follow (`healthpipe person --timezone`).
enum SchemaV11 {
    static let migration = Migration(version: 11, name: "each person's zone", sql: """
        CREATE TABLE subject_zones (
            subject TEXT NOT NULL,
            effective_from INTEGER NOT NULL,
            zone TEXT NOT NULL,
            set_at INTEGER NOT NULL,
            PRIMARY KEY (subject, effective_from)
        ) WITHOUT ROWID;
        """)
}
