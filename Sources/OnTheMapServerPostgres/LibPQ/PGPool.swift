import Foundation
import NIOConcurrencyHelpers

/// Up to `maximum` connections, lent one caller at a time. A caller that finds none free waits
/// for one (first come, first served). A connection comes back to the pool only idle (outside a
/// transaction); one that broke is dropped, and the next caller connects anew — so a PostgreSQL
/// restart costs the callers during it, not the ones after.
final class PGPool: Sendable {
    /// What a waiting caller is given: a connection, or the right to open one.
    private enum Grant {
        case connection(PGConnection)
        case open
    }

    private struct State {
        var idle: [PGConnection] = []
        /// Connections lent, idle or being opened.
        var open = 0
        var waiters: [CheckedContinuation<Grant, Never>] = []
    }

    let parameters: PGParameters
    let maximum: Int
    private let state = NIOLockedValueBox(State())

    init(parameters: PGParameters, maximum: Int) {
        self.parameters = parameters
        self.maximum = maximum
    }

    /// Lends a connection to `body`; every statement it runs goes through `PGSession`. A
    /// connection that cannot be made or that broke is thrown as `StorageUnavailable`.
    func withConnection<T: Sendable>(_ body: (PGSession) async throws -> T) async throws -> T {
        let connection: PGConnection
        do {
            connection = try await acquire()
        } catch let error as PGError {
            throw error.unavailable ?? error
        }
        let result: T
        do {
            result = try await body(PGSession(connection: connection))
        } catch let error as PGError {
            release(connection)
            throw error.unavailable ?? error
        } catch {
            release(connection)
            throw error
        }
        release(connection)
        return result
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws (its
    /// error is thrown as it was).
    func withTransaction<T: Sendable>(_ body: (PGSession) async throws -> T) async throws -> T {
        try await withConnection { session in
            try await session.execute("BEGIN")
            let result: T
            do {
                result = try await body(session)
            } catch {
                // A connection left in a transaction is dropped on release, should this fail.
                _ = try? await session.execute("ROLLBACK")
                throw error
            }
            try await session.execute("COMMIT")
            return result
        }
    }

    /// One statement on a connection of its own.
    @discardableResult
    func execute(_ query: PGQuery) async throws -> PGRows {
        try await withConnection { try await $0.execute(query) }
    }

    /// Closes the idle connections; a lent one is closed when it comes back.
    func close() {
        // Taken out under the lock, finished (PQfinish, in their deinit) after it.
        let idle = state.withLockedValue { state in
            let idle = state.idle
            state.idle = []
            state.open -= idle.count
            return idle
        }
        _ = idle
    }

    private func acquire() async throws -> PGConnection {
        let grant = await withCheckedContinuation { (continuation: CheckedContinuation<Grant, Never>) in
            let immediate = state.withLockedValue { state -> Grant? in
                if let connection = state.idle.popLast() { return .connection(connection) }
                if state.open < maximum {
                    state.open += 1
                    return .open
                }
                state.waiters.append(continuation)
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
        if case .connection(let connection) = grant {
            if connection.isAlive() { return connection }
            // Gone while idle (the server restarted): its place is taken by a new one.
        }
        let parameters = self.parameters
        do {
            return try await PGSession.onThreadOfItsOwn { try PGConnection(parameters) }
        } catch {
            giveBack(nil)
            throw error
        }
    }

    private func release(_ connection: PGConnection) {
        giveBack(connection.isIdle ? connection : nil)
    }

    /// Hands a connection, or its place when it is gone (nil), to the first waiter or the pool.
    private func giveBack(_ connection: PGConnection?) {
        let (waiter, grant) = state.withLockedValue { state -> (CheckedContinuation<Grant, Never>?, Grant) in
            let grant: Grant = connection.map { .connection($0) } ?? .open
            if !state.waiters.isEmpty { return (state.waiters.removeFirst(), grant) }
            if let connection { state.idle.append(connection) } else { state.open -= 1 }
            return (nil, grant)
        }
        waiter?.resume(returning: grant)
    }
}

/// A lent connection: each statement runs on the connection's own thread while the task waits.
struct PGSession: Sendable {
    let connection: PGConnection

    @discardableResult
    func execute(_ query: PGQuery) async throws -> PGRows {
        let connection = self.connection
        return try await Self.blocking(on: connection.queue) { try connection.execute(query) }
    }

    /// Runs a blocking call on `queue` (a connection's own, serial: a thread while it runs), off
    /// Swift's cooperative pool.
    static func blocking<T: Sendable>(on queue: DispatchQueue, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs a blocking call that has no connection yet (connecting, for up to `connect_timeout`)
    /// on a thread of its own: never on Dispatch's global queue, whose few threads other work
    /// needs.
    static func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }
}
