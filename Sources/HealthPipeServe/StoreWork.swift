import Foundation
import NIOPosix
import SQLiteStore

/// Where the server's store work runs: the store's calls block (SQLite), so they never run on the
/// event loops or Swift's cooperative threads (two on this machine). Reads share a pool of threads;
/// writes — uploads and the app's forms — go one at a time through a thread of their own, in the
/// order they came, so two requests never contend for SQLite's write lock inside this process.
public enum StoreWork {
    private static let readers: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(2, ProcessInfo.processInfo.activeProcessorCount))
        pool.start()
        return pool
    }()
    private static let writer: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    // The caller's person (a person's token) goes with the work: the store's threads are no task of the
    // request's, so its task-local would be gone there and a write could reach `--subject`'s person.
    public static func read<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let person = CallerPerson.current
        return try await readers.runIfActive { try CallerPerson.$current.withValue(person) { try body() } }
    }

    public static func write<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let person = CallerPerson.current
        return try await writer.runIfActive { try CallerPerson.$current.withValue(person) { try body() } }
    }
}
