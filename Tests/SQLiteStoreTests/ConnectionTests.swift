import CSQLite
import Testing
import SQLiteStore

@Suite struct ConnectionTests {
    @Test func prepareErrorCarriesCodeMessageAndSQL() throws {
        let dir = try TempDirectory()
        let db = try SQLiteConnection(path: dir.path("c.sqlite"))
        let sql = "SELECT * FROM nowhere"
        let error = #expect(throws: SQLiteError.self) { try db.prepare(sql) }
        #expect(error?.code == SQLITE_ERROR)
        #expect(error?.message.contains("no such table: nowhere") == true)
        #expect(error?.sql == sql)
        #expect(error?.path?.hasSuffix("/c.sqlite") == true)
        #expect(error?.description == "\(error?.path ?? ""): SQLite error 1 (SQLITE_ERROR): no such table: nowhere - while executing `SELECT * FROM nowhere`")
    }

    @Test func stepErrorCarriesExtendedCode() throws {
        let dir = try TempDirectory()
        let db = try SQLiteConnection(path: dir.path("c.sqlite"))
        try db.execute("CREATE TABLE t (x INTEGER NOT NULL)")
        let insert = try db.prepare("INSERT INTO t (x) VALUES (?1)")
        try insert.bindNull(1)
        let error = #expect(throws: SQLiteError.self) { try insert.run() }
        #expect(error?.code == SQLITE_CONSTRAINT)
        #expect(error?.extendedCode == 1299)  // SQLITE_CONSTRAINT_NOTNULL
        #expect(error?.message.contains("NOT NULL constraint failed: t.x") == true)
        #expect(error?.sql == "INSERT INTO t (x) VALUES (?1)")
        // The statement is usable again after the failure.
        try insert.bindInt(1, 7)
        try insert.run()
        #expect(try db.scalarInt("SELECT x FROM t") == 7)
    }

    @Test func executeErrorCarriesSQL() throws {
        let dir = try TempDirectory()
        let db = try SQLiteConnection(path: dir.path("c.sqlite"))
        let error = #expect(throws: SQLiteError.self) { try db.execute("CREATE TABLE t (x); CREATE TABLE t (y)") }
        #expect(error?.code == SQLITE_ERROR)
        #expect(error?.message == "table t already exists")
        #expect(error?.sql == "CREATE TABLE t (x); CREATE TABLE t (y)")
    }

    @Test func openErrorNamesThePath() throws {
        let dir = try TempDirectory()
        let path = dir.path("missing/dir/c.sqlite")
        let error = #expect(throws: SQLiteError.self) { try SQLiteConnection(path: path) }
        #expect(error?.code == SQLITE_CANTOPEN)
        #expect(error?.message.contains(path) == true)
        #expect(error?.sql == nil)
    }

    @Test func bindAndReadEveryType() throws {
        let dir = try TempDirectory()
        let db = try SQLiteConnection(path: dir.path("c.sqlite"))
        try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, st TEXT, e TEXT, n TEXT)")
        let insert = try db.prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        let bytes: [UInt8] = Array("static ünïcode".utf8)
        try bytes.withUnsafeBufferPointer { buf in
            try insert.bindInt(1, Int64.max)
            try insert.bindDouble(2, 5.25)
            try insert.bindText(3, "transient")
            try insert.bindStaticText(4, buf.baseAddress!, count: Int32(buf.count))
            try insert.bindText(5, "")
            try insert.bindText(6, nil as String?)
            try insert.run()
        }
        #expect(db.changes == 1)
        let select = try db.prepare("SELECT i, r, s, st, e, n, typeof(e), typeof(n) FROM t")
        #expect(try select.step())
        #expect(select.int(0) == Int64.max)
        #expect(select.double(1) == 5.25)
        #expect(select.text(2) == "transient")
        #expect(select.text(3) == "static ünïcode")
        #expect(select.text(4) == "")
        #expect(select.isNull(5))
        #expect(select.text(6) == "text")
        #expect(select.text(7) == "null")
        #expect(try select.step() == false)
    }

    @Test func transactionRollsBackOnThrow() throws {
        struct Boom: Error {}
        let dir = try TempDirectory()
        let db = try SQLiteConnection(path: dir.path("c.sqlite"))
        try db.execute("CREATE TABLE t (x)")
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
    }
}

@Suite struct StatementBindingTests {
    @Test func aParameterNeverBoundIsAnErrorNamingIt() throws {
        let dir = try TempDirectory()
        let db = try SQLiteConnection(path: dir.path("b.sqlite"))
        try db.execute("CREATE TABLE t (a INTEGER, b INTEGER, c INTEGER)")
        let insert = try db.prepare("INSERT INTO t VALUES (?1, ?2, ?3)")
        try insert.bindInt(1, 1)
        try insert.bindInt(3, 3)
        let error = #expect(throws: SQLiteError.self) { try insert.run() }
        #expect(error?.codeName == "SQLITE_RANGE")
        #expect(error?.message.contains("3 parameters; 2 never bound") == true, "\(error?.message ?? "")")
        #expect(try RawSQLite.count(dir.path("b.sqlite"), "t") == 0)
        // Bound in full, it runs; later rows may rebind only what changes.
        let ok = try db.prepare("INSERT INTO t VALUES (?1, ?2, ?3)")
        for i in 1...3 { try ok.bindInt(Int32(i), Int64(i)) }
        try ok.run()
        try ok.bindInt(1, 10)
        try ok.run()
        #expect(try RawSQLite.count(dir.path("b.sqlite"), "t") == 2)
    }
}
