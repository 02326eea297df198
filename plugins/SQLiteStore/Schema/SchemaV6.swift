/// Schema version 6: devices stored once. Records name their device by `device_id`; the device's
/// fields live in `devices.attributes` (JSON object, unique) with the common ones as generated
/// columns. Before v6 every Apple Health row repeated its device inside `metadata` (`$.device`,
/// about 110 bytes a row): those are moved into `devices` and removed from `metadata` here.
enum SchemaV6 {
    static let migration = Migration(version: 6, name: "devices", sql: """
        CREATE TABLE devices (
            id INTEGER PRIMARY KEY,
            attributes TEXT NOT NULL UNIQUE, -- every field as the source wrote it, JSON object
            name TEXT GENERATED ALWAYS AS (json_extract(attributes, '$.name')) VIRTUAL,
            manufacturer TEXT GENERATED ALWAYS AS (json_extract(attributes, '$.manufacturer')) VIRTUAL,
            model TEXT GENERATED ALWAYS AS (json_extract(attributes, '$.model')) VIRTUAL,
            hardware TEXT GENERATED ALWAYS AS (json_extract(attributes, '$.hardware')) VIRTUAL,
            software TEXT GENERATED ALWAYS AS (json_extract(attributes, '$.software')) VIRTUAL
        );
        ALTER TABLE measurements ADD COLUMN device_id INTEGER REFERENCES devices(id);
        ALTER TABLE events ADD COLUMN device_id INTEGER REFERENCES devices(id);

        INSERT OR IGNORE INTO devices (attributes)
            SELECT json_extract(metadata, '$.device') FROM measurements
             WHERE metadata LIKE '%"device":{%' AND json_valid(metadata) AND json_type(metadata, '$.device') = 'object'
            UNION
            SELECT json_extract(metadata, '$.device') FROM events
             WHERE metadata LIKE '%"device":{%' AND json_valid(metadata) AND json_type(metadata, '$.device') = 'object';
        UPDATE measurements
           SET device_id = (SELECT id FROM devices WHERE attributes = json_extract(measurements.metadata, '$.device')),
               metadata = nullif(json_remove(metadata, '$.device'), '{}')
         WHERE metadata LIKE '%"device":{%' AND json_valid(metadata) AND json_type(metadata, '$.device') = 'object';
        UPDATE events
           SET device_id = (SELECT id FROM devices WHERE attributes = json_extract(events.metadata, '$.device')),
               metadata = nullif(json_remove(metadata, '$.device'), '{}')
         WHERE metadata LIKE '%"device":{%' AND json_valid(metadata) AND json_type(metadata, '$.device') = 'object';
        """)
}
