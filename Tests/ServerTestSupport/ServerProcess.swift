import Foundation

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
    public let process: Process
    public let port: Int
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    private let output: Pipe
    private let tail = LogTail()

    /// The last 8 KB the child logged (stdout and stderr), to say why it ended when it should not have.
    public var logTail: String { tail.text }

    /// Starts the server on `database` (a SQLite path or PostgreSQL URL) and waits until it listens.
    public static func start(database: String, arguments: [String] = []) async throws -> ServerProcess {
        let process = Process()
        process.executableURL = ProductBinary.url("onthemap-server")
        process.arguments = ["serve", "--port", "0", "--database", database, "--log-level", "notice"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let port = try await Self.waitForPort(output.fileHandleForReading, process: process)
        return ServerProcess(process: process, port: port, output: output)
    }

    private init(process: Process, port: Int, output: Pipe) {
        self.process = process
        self.port = port
        self.output = output
        // Keep draining the log so the child never blocks on a full pipe.
        PipeDrain.start(output.fileHandleForReading) { [tail] in tail.add($0) }
    }

    /// Reads the child's log until "listening on http://127.0.0.1:PORT" (at most 30 s).
    private static func waitForPort(_ handle: FileHandle, process: Process) async throws -> Int {
        let deadline = Date().addingTimeInterval(30)
        var text = ""
        while Date() < deadline {
            let data = handle.availableData
            if data.isEmpty {
                if !process.isRunning { break }
                try await Task.sleep(for: .milliseconds(20))
                continue
            }
            text += String(decoding: data, as: UTF8.self)
            if let range = text.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                let match = text[range]
                if let port = Int(match.split(separator: ":").last ?? "") { return port }
            }
        }
        process.terminate()
        throw TestServerError("onthemap-server did not start: \(text)")
    }

    /// SIGKILL, without waiting for the exit (`waitForExit()` waits): no cleanup, no flush — a crash.
    public func sendKill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
    }

    /// SIGTERM, then waits for the exit; returns the exit status.
    @discardableResult
    public func terminate() -> Int32 {
        sendTerminate()
        return waitForExit()
    }

    /// SIGTERM without waiting: the server starts draining.
    public func sendTerminate() {
        Glibc.kill(process.processIdentifier, SIGTERM)
    }

    /// Waits for the process to end; returns its exit status.
    public func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }
}

/// The end of a child's log, kept as it is drained.
private final class LogTail: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    func add(_ data: Data) {
        lock.withLock {
            bytes += data
            if bytes.count > 8192 { bytes.removeFirst(bytes.count - 8192) }
        }
    }

    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
}
