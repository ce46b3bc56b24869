import Foundation
import Hummingbird
import Logging
import NIOPosix
import ServerAdmin
import ServerConfig
import ServerHTTP
import ServiceLifecycle

/// An `onthemap-server` inside another process, on 127.0.0.1 and a free port: the app's
/// default when no server is configured, and the tests' real server.
///
/// It registers no signal handlers (the host process owns them) and logs only what its logger
/// allows — give it one that does not write to a terminal that curses is drawing on.
public final class EmbeddedServer: Sendable {
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Why the embedded server did not start.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.group = group
        self.task = task
    }

    /// `configuration` for the terminal app's built-in server, which serves one student on
    /// loopback: one event-loop thread (NIO's shared group has one a core, each with its buffers)
    /// and at most two SQLite readers (GRDB opens up to five as reads overlap). The thread is
    /// shared by every such server of the process and, like NIO's shared group, never shut down.
    public static func forOneStudent(_ configuration: ServerConfiguration) -> ServerConfiguration {
        var configuration = configuration
        configuration.eventLoopGroup = oneStudentEventLoop
        configuration.sqliteReaders = 2
        return configuration
    }

    private static let oneStudentEventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Opens the database, seeds the demo class when `seedDemo` and the database is empty,
    /// and starts listening.
    public static func start(
        configuration: ServerConfiguration, seedDemo: Bool = true, logger: Logger = Logger(label: "onthemap-server.embedded")
    ) async throws -> EmbeddedServer {
        var configuration = configuration
        configuration.host = "127.0.0.1"
        if seedDemo {
            let database = try await ServerDatabase.open(configuration)
            defer { Task { await database.close() } }
            _ = try await database.seedDemo()
        }
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        let built = try await ServerApplication.build(configuration: configuration, logger: logger) { port in
            portContinuation.yield(port)
            portContinuation.finish()
        }
        let group = ServiceGroup(
            configuration: .init(services: [built.application], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            defer { portContinuation.finish() }
            do {
                try await group.run()
            } catch {
                await built.close()
                throw error
            }
            await built.close()
        }
        // If binding fails, the task ends and finishes the stream without a port.
        var iterator = portStream.makeAsyncIterator()
        guard let port = await iterator.next() else {
            do {
                try await task.value
            } catch {
                throw StartError(description: "The embedded server could not start: \(error)")
            }
            throw StartError(description: "The embedded server stopped before it listened.")
        }
        return EmbeddedServer(port: port, group: group, task: task)
    }

    /// Stops accepting, finishes in-flight requests, and releases the port.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
