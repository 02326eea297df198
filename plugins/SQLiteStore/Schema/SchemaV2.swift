/// Schema version 2 (Apple Health): a `metadata` JSON text column on measurements and events (the
/// source's extra facts: Apple MetadataEntry children, the parsed device), and `subject_profiles`
/// for characteristics such as Apple's `Me` element.
enum SchemaV2 {
    static let migration = Migration(version: 2, name: "metadata columns and subject profiles", sql: """
        ALTER TABLE measurements ADD COLUMN metadata TEXT;
        ALTER TABLE events ADD COLUMN metadata TEXT;

        CREATE TABLE subject_profiles (
            subject TEXT NOT NULL,
            source TEXT NOT NULL,
            date_of_birth TEXT,
            biological_sex TEXT,
            blood_type TEXT,
            skin_type TEXT,
            attributes TEXT NOT NULL, -- every characteristic as written, JSON object
            import_id INTEGER,
            PRIMARY KEY (subject, source)
        );
        """)
}
