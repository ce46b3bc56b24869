import Foundation
import Launcher

#if canImport(Glibc)
import Glibc
#endif

/// A built executable of this package, found beside the test bundle (or at `$ONTHEMAP_BIN_DIR`).
public enum ProductBinary {
    public static func url(_ name: String) -> URL {
        if let directory = ProcessInfo.processInfo.environment["ONTHEMAP_BIN_DIR"] {
            return URL(fileURLWithPath: directory).appendingPathComponent(name)
        }
        let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()].map {
            $0.appendingPathComponent(name)
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }
}

/// `onthemap-server serve` as a real child process on 127.0.0.1 and a free port.
public final class ServerProcess: @unchecked Sendable {
    public let process: LaunchedProcess
    public let port: Int
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    public var processIdentifier: pid_t { process.id }

    /// The last 8 KB the child logged (stdout and stderr), to say why it ended when it should not have.
    public var logTail: String { process.standardOutput.last(8192) }

    /// Starts the server on `database` (a SQLite path or PostgreSQL URL) and waits until it listens.
    public static func start(database: String, arguments: [String] = []) async throws -> ServerProcess {
        let process = try LaunchedProcess.start(
            ProductBinary.url("onthemap-server"),
            ["serve", "--port", "0", "--database", database, "--log-level", "notice"] + arguments, errors: .merged)
        let pattern = #"listening on http://127\.0\.0\.1:(\d+)"#
        // Acts on the log's lines as they come; gives up when the child ends or after 30 s.
        guard let text = await process.standardOutput.waitForOutput({ $0.range(of: pattern, options: .regularExpression) != nil }),
            let range = text.range(of: pattern, options: .regularExpression),
            let port = Int(text[range].split(separator: ":").last ?? "")
        else {
            process.send(SIGKILL)
            throw TestServerError("onthemap-server did not start: \(process.standardOutput.text)")
        }
        return ServerProcess(process: process, port: port)
    }

    private init(process: LaunchedProcess, port: Int) {
        self.process = process
        self.port = port
    }

    /// SIGKILL, without waiting for the exit (`waitForExit()` waits): no cleanup, no flush — a crash.
    public func sendKill() {
        process.send(SIGKILL)
    }

    /// SIGTERM, then waits for the exit; returns the exit status.
    @discardableResult
    public func terminate() -> Int32 {
        sendTerminate()
        return waitForExit()
    }

    /// SIGTERM without waiting: the server starts draining.
    public func sendTerminate() {
        process.send(SIGTERM)
    }

    /// Waits for the process to end; returns its exit status.
    public func waitForExit() -> Int32 {
        process.waitForExit()
    }
}
