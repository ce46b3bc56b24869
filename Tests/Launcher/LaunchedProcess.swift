import Foundation
import Spawn
import TestPatience

#if canImport(Glibc)
import Glibc
#endif

/// The tests' one way to start a process — a server, the CLI under test, the TLS stand-in,
/// openssl, sixel2png, a child of the test runner — through `ChildProcess` (posix_spawn, no
/// shell). Its pipes are drained here alone, each by a thread of its own from the start, so a
/// child never blocks on a full pipe and no test reads a pipe itself: a test reads what was
/// captured, or waits for it (`waitForOutput`, `nextLine`), or for the end (`finished()`).
public final class LaunchedProcess: @unchecked Sendable {
    /// The child's standard input.
    public enum Input: Sendable {
        /// /dev/null.
        case null
        /// A pipe this side writes (`write(_:)`) and closes (`closeInput()`); the child sees its
        /// end when this side closes it, or when this object goes.
        case pipe
        /// These bytes, written by a thread of their own, then the end.
        case bytes(Data)
    }

    /// The child's standard output or error.
    public enum Output: Sendable {
        case discard
        /// Kept in `standardOutput` / `standardError`.
        case capture
        /// Standard error only: into the same capture as standard output, in the order written.
        case merged
        /// This process's own (for a child whose output should reach the test's log).
        case inherit
    }

    /// What a finished process left: how it ended and all it wrote.
    public struct Result: Sendable {
        public let status: Int32
        public let termination: ChildProcess.Termination
        public let stdout: String
        public let stderr: String
        public let stdoutData: Data
    }

    public let child: ChildProcess
    public let standardOutput: Captured
    public let standardError: Captured
    private let input: FileHandle?

    public var id: pid_t { child.id }
    public var isRunning: Bool { child.isRunning }

    /// Starts `executable` (a path) with `arguments`; `environment` nil inherits this process's.
    public static func start(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        input: Input = .null, output: Output = .capture, errors: Output = .capture
    ) throws -> LaunchedProcess {
        try LaunchedProcess(
            executable: executable.path, arguments: arguments, environment: environment, directory: directory?.path,
            input: input, output: output, errors: errors)
    }

    /// A program found on PATH (through /usr/bin/env), as a shell would find it but with no shell.
    public static func start(
        program: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        input: Input = .null, output: Output = .capture, errors: Output = .capture
    ) throws -> LaunchedProcess {
        try start(
            URL(fileURLWithPath: "/usr/bin/env"), [program] + arguments, environment: environment, directory: directory,
            input: input, output: output, errors: errors)
    }

    /// Starts, then waits for the end and for all output, blocking no thread.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        input: Input = .null, output: Output = .capture, errors: Output = .capture
    ) async throws -> Result {
        try await start(
            executable, arguments, environment: environment, directory: directory, input: input, output: output,
            errors: errors
        ).finished()
    }

    /// `run` for a program found on PATH.
    public static func run(
        program: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        input: Input = .null, output: Output = .capture, errors: Output = .capture
    ) async throws -> Result {
        try await start(
            program: program, arguments, environment: environment, directory: directory, input: input, output: output,
            errors: errors
        ).finished()
    }

    /// `run`, blocking this thread: for synchronous tests and set-up that runs no server the
    /// child needs in this process.
    public static func runBlocking(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        input: Input = .null, output: Output = .capture, errors: Output = .capture
    ) throws -> Result {
        try start(
            executable, arguments, environment: environment, directory: directory, input: input, output: output,
            errors: errors
        ).finishedBlocking()
    }

    /// A child that exits before reading all of `Input.bytes` closes the pipe under its writer:
    /// that write must fail with EPIPE, not kill the test runner with SIGPIPE. (Children start
    /// with every signal's default action again.)
    private static let brokenPipesFail: Void = { signal(SIGPIPE, SIG_IGN) }()

    private init(
        executable: String, arguments: [String], environment: [String: String]?, directory: String?, input: Input,
        output: Output, errors: Output
    ) throws {
        Self.brokenPipesFail
        var parentEnds: [Int32] = []  // this side's ends, closed if the start fails
        var childEnds: [Int32] = []  // the child's ends, closed here once it has them
        defer { childEnds.forEach { close($0) } }
        func pipe() throws -> (read: Int32, write: Int32) {
            do {
                return try ChildProcess.makePipe()
            } catch {
                parentEnds.forEach { close($0) }
                throw error
            }
        }

        var stdin = ChildProcess.Stream.null
        var inputEnd: Int32?
        switch input {
        case .null: break
        case .pipe, .bytes:
            let ends = try pipe()
            stdin = .descriptor(ends.read)
            childEnds.append(ends.read)
            parentEnds.append(ends.write)
            inputEnd = ends.write
        }
        let outputCapture = Captured()
        let errorCapture = Captured()
        var stdout = ChildProcess.Stream.null
        var stderr = ChildProcess.Stream.null
        var outputRead: Int32?
        var errorRead: Int32?
        /// A pipe the child writes and this side drains: the child's stream and this side's end.
        func captured() throws -> (ChildProcess.Stream, Int32) {
            let ends = try pipe()
            childEnds.append(ends.write)
            parentEnds.append(ends.read)
            return (.descriptor(ends.write), ends.read)
        }
        switch output {
        case .discard, .merged: break
        case .inherit: stdout = .inherit
        case .capture: (stdout, outputRead) = try captured()
        }
        switch errors {
        case .discard: break
        case .inherit: stderr = .inherit
        case .merged: stderr = stdout
        case .capture: (stderr, errorRead) = try captured()
        }
        do {
            child = try ChildProcess(
                executable: executable, arguments: arguments, environment: environment, directory: directory,
                standardInput: stdin, standardOutput: stdout, standardError: stderr)
        } catch {
            parentEnds.forEach { close($0) }
            throw error
        }
        standardOutput = outputCapture
        standardError = errors == .merged ? outputCapture : errorCapture
        if let outputRead { outputCapture.drain(outputRead) } else { outputCapture.close() }
        if let errorRead { errorCapture.drain(errorRead) } else if errors != .merged { errorCapture.close() }
        switch input {
        case .bytes(let data):
            let writer = FileHandle(fileDescriptor: inputEnd!, closeOnDealloc: true)
            Thread.detachNewThread {
                try? writer.write(contentsOf: data)
                try? writer.close()
            }
            self.input = nil
        case .pipe: self.input = FileHandle(fileDescriptor: inputEnd!, closeOnDealloc: true)
        case .null: self.input = nil
        }
    }

    /// Writes to the child's standard input (`Input.pipe`).
    public func write(_ data: Data) throws { try input?.write(contentsOf: data) }

    /// Closes the child's standard input: it reads its end.
    public func closeInput() { try? input?.close() }

    /// Sends `signal` while the child has not ended.
    @discardableResult
    public func send(_ signal: Int32) -> Bool { child.send(signal) }

    /// SIGTERM, then waits for the end; returns the status.
    @discardableResult
    public func terminate() -> Int32 {
        child.send(SIGTERM)
        return child.wait().status
    }

    /// Waits for the end, blocking this thread.
    @discardableResult
    public func waitForExit() -> Int32 { child.wait().status }

    /// Suspends until the end, blocking no thread.
    @discardableResult
    public func exited() async -> Int32 { await child.terminated().status }

    /// Waits for the end and for both outputs' ends, blocking no thread.
    public func finished() async -> Result {
        let termination = await child.terminated()
        await standardOutput.closed()
        await standardError.closed()
        return result(termination)
    }

    /// `finished()`, blocking this thread.
    public func finishedBlocking() -> Result {
        let termination = child.wait()
        standardOutput.waitUntilClosed()
        standardError.waitUntilClosed()
        return result(termination)
    }

    private func result(_ termination: ChildProcess.Termination) -> Result {
        Result(
            status: termination.status, termination: termination, stdout: standardOutput.text,
            stderr: standardError === standardOutput ? "" : standardError.text, stdoutData: standardOutput.data)
    }

    deinit {
        child.send(SIGKILL)
    }
}

extension LaunchedProcess.Output: Equatable {}

/// What a child wrote to one pipe, read to its end by a thread of its own. Keeps the first 8 MiB
/// and the last 1 MiB after them (a server's start and its latest lines), so a child that logs
/// for a long test holds bounded memory here.
public final class Captured: @unchecked Sendable {
    static let headLimit = 8 << 20
    static let tailLimit = 1 << 20

    private let state = NSCondition()
    private var head: [UInt8] = []  // under `state`, like the rest
    private var tail: [UInt8] = []
    private var leftOut = 0
    private var isClosed = false
    private var waiters: [@Sendable () -> Void] = []

    /// Everything kept, as text (a note where the middle was left out).
    public var text: String { snapshot().0 }

    /// Everything kept, as bytes.
    public var data: Data { state.withLock { Data(head + tail) } }

    /// The last `count` bytes kept, as text.
    public func last(_ count: Int) -> String {
        state.withLock { String(decoding: (head + tail).suffix(count), as: UTF8.self) }
    }

    /// Whether the writer's end is closed and everything was read.
    public var isFinished: Bool { state.withLock { isClosed } }

    func drain(_ descriptor: Int32) {
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                append(chunk[..<count])
            }
            Glibc.close(descriptor)
            close()
        }
        thread.name = "drain \(descriptor)"
        thread.start()
    }

    private func append(_ bytes: ArraySlice<UInt8>) {
        state.lock()
        let room = max(0, Self.headLimit - head.count)
        head += bytes.prefix(room)
        if bytes.count > room {
            tail += bytes.dropFirst(room)
            if tail.count > Self.tailLimit {
                leftOut += tail.count - Self.tailLimit
                tail.removeFirst(tail.count - Self.tailLimit)
            }
        }
        let notify = waiters
        waiters = []
        state.broadcast()
        state.unlock()
        notify.forEach { $0() }
    }

    func close() {
        state.lock()
        isClosed = true
        let notify = waiters
        waiters = []
        state.broadcast()
        state.unlock()
        notify.forEach { $0() }
    }

    /// Blocks this thread until the writer's end is closed and everything was read.
    public func waitUntilClosed() {
        state.lock()
        while !isClosed { state.wait() }
        state.unlock()
    }

    /// Suspends until the writer's end is closed and everything was read.
    public func closed() async {
        _ = await waitForOutput(timeout: .seconds(1 << 30)) { _ in false }
    }

    /// Suspends until `predicate` holds for the text kept so far (checked at each new chunk) and
    /// returns that text; nil when the output ends or `timeout` passes first. Acts on the
    /// child's bytes, not on a polling interval.
    public func waitForOutput(
        timeout: Duration = Patience.forAnEvent, _ predicate: @escaping @Sendable (String) -> Bool
    ) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            // What is there already first: a line that came before the wait began is not waited
            // for again (was: the wait began with the next chunk, so a server that had printed its
            // port and then kept quiet was waited for until the deadline).
            let (text, count, closed) = snapshot()
            if predicate(text) { return text }
            if closed { return nil }
            guard await change(after: count, before: deadline) else { return predicate(self.text) ? self.text : nil }
        }
    }

    /// The next line (without its newline) after `cursor`, which it advances; nil at the end of
    /// the output or after `timeout`. Blocks no thread.
    public func nextLine(after cursor: LineCursor, timeout: Duration = .seconds(1 << 30)) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (line, count, closed) = state.withLock { () -> (String?, Int, Bool) in
                if let newline = head[cursor.offset...].firstIndex(of: 10) {
                    defer { cursor.offset = newline + 1 }
                    return (String(decoding: head[cursor.offset..<newline], as: UTF8.self), 0, isClosed)
                }
                return (nil, head.count + tail.count + leftOut, isClosed)
            }
            if let line { return line }
            if closed { return nil }
            guard await change(after: count, before: deadline) else { return nil }
        }
    }

    /// Its lines one after another, from the first.
    public func lines() -> Lines { Lines(self) }

    /// The text kept, the count of bytes read so far, and whether the writer's end is closed, at
    /// one moment: what `change(after:before:)` is asked against.
    private func snapshot() -> (String, Int, Bool) {
        state.withLock {
            let text =
                leftOut == 0
                ? String(decoding: head + tail, as: UTF8.self)
                : String(decoding: head, as: UTF8.self) + "\n[… \(leftOut) bytes left out …]\n"
                    + String(decoding: tail, as: UTF8.self)
            return (text, head.count + tail.count + leftOut, isClosed)
        }
    }

    /// Waits until more than `count` bytes were read or the end came (true), or `deadline`
    /// passed first (false). Asked against a count taken with what the caller looked at, so that
    /// a chunk that came in between is not missed.
    private func change(after count: Int, before deadline: ContinuousClock.Instant) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let once = Once(continuation)
            state.lock()
            if head.count + tail.count + leftOut != count || isClosed {
                state.unlock()
                once.resume(true)
                return
            }
            waiters.append { once.resume(true) }
            state.unlock()
            if deadline - .now < .seconds(1 << 29) {
                once.timer = Task {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    once.resume(false)
                }
            }
        }
    }
}

/// A capture's lines, read in order: `next(within:)` waits for the next one.
public final class Lines: Sendable {
    private let captured: Captured
    private let cursor = LineCursor()

    init(_ captured: Captured) { self.captured = captured }

    /// The next line, or nil at the end of the output or after `timeout`.
    public func next(within timeout: Duration = Patience.forAnEvent) async -> String? {
        await captured.nextLine(after: cursor, timeout: timeout)
    }
}

/// Where `Captured.nextLine` has read to.
public final class LineCursor: @unchecked Sendable {
    var offset = 0
    public init() {}
}

/// A continuation resumed by whichever comes first: the output, or the deadline.
private final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?
    /// The deadline's sleep, cancelled when the output comes first.
    var timer: Task<Void, Never>? {
        get { lock.withLock { storedTimer } }
        set {
            let cancel = lock.withLock { () -> Bool in
                storedTimer = newValue
                return continuation == nil
            }
            if cancel { newValue?.cancel() }
        }
    }
    private var storedTimer: Task<Void, Never>?

    init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = continuation }

    func resume(_ value: Bool) {
        let timer = lock.withLock { () -> Task<Void, Never>? in
            continuation?.resume(returning: value)
            continuation = nil
            return storedTimer
        }
        timer?.cancel()
    }
}
