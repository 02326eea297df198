/// Groups writes into transactions of `batchRows` rows: BEGIN IMMEDIATE lazily before the first
/// row, COMMIT when the count is reached. A killed process loses only the open transaction.
final class BatchTransaction {
    private let db: SQLiteConnection
    private let batchRows: Int
    private var pendingRows = 0
    /// Runs inside the transaction just before COMMIT (bookkeeping that must commit with the rows).
    var beforeCommit: () throws -> Void = {}

    init(db: SQLiteConnection, batchRows: Int) {
        self.db = db
        self.batchRows = max(1, batchRows)
    }

    var isOpen: Bool { db.isInTransaction }

    func beginIfNeeded() throws {
        if !db.isInTransaction {
            try db.execute("BEGIN IMMEDIATE")
            pendingRows = 0
        }
    }

    /// Calls `body` with consecutive index ranges of `0..<count`, each fitting in the open
    /// transaction, committing whenever a transaction is full.
    func write(count: Int, _ body: (Range<Int>) throws -> Void) throws {
        var next = 0
        while next < count {
            try beginIfNeeded()
            let n = min(count - next, batchRows - pendingRows)
            try body(next..<(next + n))
            pendingRows += n
            next += n
            if pendingRows >= batchRows { try commit() }
        }
    }

    /// Commits the open transaction, if any; on failure rolls back and rethrows.
    func commit() throws {
        guard db.isInTransaction else { return }
        do {
            try beforeCommit()
            try db.execute("COMMIT")
            pendingRows = 0
        } catch {
            rollback()
            throw error
        }
    }

    func rollback() {
        if db.isInTransaction { try? db.execute("ROLLBACK") }
        pendingRows = 0
    }
}
