import CSpawn
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program started with `posix_spawn`: the executable's path and its arguments as an array,
/// never a shell. The one way this package starts a process — the app's link opener and every
/// test's servers and tools — instead of Foundation's `Process`, whose start is not safe when
/// several threads start processes at once on Linux (swift-corelibs-foundation #4772, #4795).
///
/// The child gets only the descriptors it is given as 0, 1 and 2 (nothing given: /dev/null);
/// every other descriptor of this process is closed in it, so a browser never holds the app's
/// listening socket and a test's child never holds another test's pipe open. One thread waits
/// for the child and reaps it; `send(_:)` signals only a child that has not been reaped, so a
/// signal never reaches another process that was given the same id.
public final class ChildProcess: @unchecked Sendable {
    /// What becomes the child's standard input, output or error.
    public enum Stream: Sendable {
        /// /dev/null.
        case null
        /// This process's own descriptor of the same number.
        case inherit
        /// A descriptor of this process (the caller still owns it and closes it after `init`).
        case descriptor(Int32)
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// The exit code, or 128 + the signal's number, as a shell reports it.
        public var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signalled(let signal): 128 + signal
            }
        }

        public var description: String {
            switch self {
            case .exited(let code): "exited \(code)"
            case .signalled(let signal): "killed by signal \(signal)"
            }
        }
    }

    public let id: pid_t
    public let executable: String
    private let state: NSCondition
    private var ended: Termination?  // under `state`
    private var waiters: [@Sendable (Termination) -> Void] = []

    /// Starts `executable` (a path: no search) with `arguments` (without the program's name) and
    /// `environment` (nil: this process's). `newSession` puts the child in a session of its own:
    /// no controlling terminal, so the terminal's keys and hang-up never reach it.
    /// `onExit` is called once, on the waiting thread, when the child has ended.
    public init(
        executable: String, arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        standardInput: Stream = .null, standardOutput: Stream = .null, standardError: Stream = .null,
        newSession: Bool = false, onExit: (@Sendable (Termination) -> Void)? = nil
    ) throws(SpawnFailure) {
        self.executable = executable
        self.state = NSCondition()
        if let onExit { waiters.append(onExit) }
        let argv = [executable] + arguments
        let envp = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        var child: pid_t = 0
        let error = CStrings.withArray(argv) { argv in
            CStrings.withOptionalArray(envp) { envp in
                withOptionalCString(directory) { directory in
                    otm_spawn(
                        &child, executable, argv, envp ?? UnsafePointer(environ), directory, standardInput.descriptor(0),
                        standardOutput.descriptor(1), standardError.descriptor(2), newSession ? 1 : 0)
                }
            }
        }
        guard error == 0 else { throw SpawnFailure(executable: executable, code: error) }
        id = child
        let thread = Thread { [self] in reap() }
        thread.name = "wait \(child)"
        thread.start()
    }

    /// A pipe whose ends are both close-on-exec, to give one end to a child as a `Stream` (the
    /// child gets its own copy; close this one once the child has started).
    public static func makePipe() throws(SpawnFailure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        let error = otm_cloexec_pipe(&ends)
        guard error == 0 else { throw SpawnFailure(executable: "pipe", code: error) }
        return (ends[0], ends[1])
    }

    /// How the child ended, or nil while it runs (or has ended but is not yet reaped).
    public var termination: Termination? { state.withLock { ended } }

    public var isRunning: Bool { termination == nil }

    /// Blocks this thread until the child has ended.
    @discardableResult
    public func wait() -> Termination {
        state.lock()
        defer { state.unlock() }
        while ended == nil { state.wait() }
        return ended!
    }

    /// Suspends until the child has ended, blocking no thread.
    @discardableResult
    public func terminated() async -> Termination {
        await withCheckedContinuation { continuation in
            whenTerminated { continuation.resume(returning: $0) }
        }
    }

    /// Calls `body` once the child has ended: at once (on this thread) if it already has, else on
    /// the waiting thread.
    public func whenTerminated(_ body: @escaping @Sendable (Termination) -> Void) {
        state.lock()
        if let ended {
            state.unlock()
            body(ended)
        } else {
            waiters.append(body)
            state.unlock()
        }
    }

    /// Sends `signal` while the child has not been reaped; returns whether it was sent.
    @discardableResult
    public func send(_ signal: Int32) -> Bool {
        state.withLock { ended == nil && kill(id, signal) == 0 }
    }

    /// Waits for the child's end without reaping it, then reaps it and records how it ended under
    /// the lock `send` takes: until then the id is still the child's, so no signal can miss.
    private func reap() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(id), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        state.lock()
        var status: Int32 = 0
        while waitpid(id, &status, 0) < 0 && errno == EINTR {}
        let termination: Termination =
            (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        ended = termination
        let notify = waiters
        waiters = []
        state.broadcast()
        state.unlock()
        for waiter in notify { waiter(termination) }
    }
}

/// A child could not be started.
public struct SpawnFailure: Error, CustomStringConvertible, Equatable {
    public let executable: String
    /// The errno `posix_spawn` reported (ENOENT: no such program; EACCES: not executable).
    public let code: Int32

    public init(executable: String, code: Int32) {
        self.executable = executable
        self.code = code
    }

    public var description: String { "\(executable) could not be started: \(String(cString: strerror(code)))" }
}

extension ChildProcess.Stream {
    fileprivate func descriptor(_ number: Int32) -> Int32 {
        switch self {
        case .null: -1
        case .inherit: number
        case .descriptor(let descriptor): descriptor
        }
    }
}

/// NUL-terminated C string arrays for `posix_spawn`'s argv and envp, alive during `body`.
private enum CStrings {
    static func withArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    static func withOptionalArray<R>(
        _ strings: [String]?, _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> R
    ) -> R {
        guard let strings else { return body(nil) }
        return withArray(strings) { body($0) }
    }
}

private func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
