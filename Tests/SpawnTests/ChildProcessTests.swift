import Foundation
import Launcher
import Spawn
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `ChildProcess` and the tests' `LaunchedProcess` over it: no shell, only the descriptors given,
/// the right statuses, signals only to a child not yet reaped, and many starts at once.
@Suite struct ChildProcessTests {
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    /// Arguments reach the child byte for byte, each one whole: a shell would have split, expanded
    /// or run them.
    @Test func argumentsArriveAsGivenWithNoShell() async throws {
        let arguments = ["; touch /tmp/onthemap-spawn-pwned", "$(id)", "`id`", "a b", "", "'\"\\", "ünï ✓", "*", "--x=1"]
        let run = try await LaunchedProcess.run(
            Self.python, ["-c", "import sys; sys.stdout.buffer.write(b'\\0'.join(a.encode() for a in sys.argv[1:]))"] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\0", omittingEmptySubsequences: false).map(String.init) == arguments)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/onthemap-spawn-pwned"))
    }

    /// A descriptor of this process that is not close-on-exec (as a library may leave one) is
    /// closed in the child; the one given as its standard input is there.
    @Test func onlyTheGivenDescriptorsReachTheChild() async throws {
        let leaked = open("/dev/null", O_RDONLY)  // no O_CLOEXEC
        try #require(leaked > 2)
        defer { close(leaked) }
        let check = "import os, sys\ntry:\n os.fstat(int(sys.argv[1])); print('open')\nexcept OSError:\n print('closed')"
        let run = try await LaunchedProcess.run(Self.python, ["-c", check, String(leaked)])
        #expect(run.stdout == "closed\n", "\(run.stderr)")
        let given = try ChildProcess(
            executable: Self.python.path, arguments: ["-c", "import os, sys; os.fstat(0); sys.exit(7)"],
            standardInput: .descriptor(leaked))
        #expect(given.wait() == .exited(7))
    }

    /// `newSession` makes the child lead a session of its own (no controlling terminal: a link's
    /// browser gets none of the terminal's keys); without it the child stays in this one.
    @Test func aNewSessionIsTheChildsOwn() async throws {
        let leads = "import os; print(os.getsid(0) == os.getpid())"
        for (newSession, expected) in [(true, "True\n"), (false, "False\n")] {
            let (read, write) = try ChildProcess.makePipe()
            let child = try ChildProcess(
                executable: Self.python.path, arguments: ["-c", leads], standardOutput: .descriptor(write),
                newSession: newSession)
            close(write)
            #expect(await child.terminated() == .exited(0))
            #expect(Self.readAll(read) == expected, "newSession: \(newSession)")
        }
    }

    @Test func exitCodesSignalsAndNoSignalAfterTheEnd() async throws {
        let exits = try ChildProcess(executable: Self.python.path, arguments: ["-c", "import sys; sys.exit(3)"])
        #expect(await exits.terminated() == .exited(3))
        #expect(exits.termination?.status == 3)
        #expect(!exits.send(SIGTERM), "reaped: its id may be another process's now")

        let sleeper = try ChildProcess(executable: "/bin/sleep", arguments: ["60"])
        #expect(sleeper.isRunning)
        #expect(sleeper.send(SIGTERM))
        #expect(sleeper.wait() == .signalled(SIGTERM))
        #expect(sleeper.wait().status == 128 + SIGTERM)
    }

    /// The child starts with no signal blocked or ignored, whatever this process does (its own
    /// status, read by grep, which changes no signal's handling itself as Python would). Only the
    /// standard signals: glibc keeps two real-time ones (32, 33) for itself.
    @Test func theChildGetsDefaultSignalHandling() async throws {
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let run = try await LaunchedProcess.run(URL(fileURLWithPath: "/bin/grep"), ["-E", "^Sig(Ign|Blk)", "/proc/self/status"])
        let masks = Dictionary(
            uniqueKeysWithValues: run.stdout.split(separator: "\n").map {
                let parts = $0.split(separator: ":\t")
                return (String(parts[0]), UInt64(parts.last ?? "", radix: 16) ?? .max)
            })
        #expect(masks["SigBlk"] == 0, "\(run.stdout)")
        #expect(masks["SigIgn"].map { $0 & 0x7fff_ffff } == 0, "\(run.stdout)")
        // The control: this process does ignore SIGPIPE (bit 13). It may ignore others it was
        // started with (nohup's SIGHUP, a background job's SIGINT and SIGQUIT): only the bit is
        // asked.
        let control = try LaunchedProcess.runBlocking(URL(fileURLWithPath: "/bin/grep"), ["-E", "^SigIgn", "/proc/\(getpid())/status"])
        let ignored = UInt64(control.stdout.split(separator: "\t").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "", radix: 16)
        #expect(ignored.map { $0 & (1 << (SIGPIPE - 1)) != 0 } == true, "this process ignores SIGPIPE (bit 13): \(control.stdout)")
    }

    @Test func aMissingProgramIsAnErrorNotACrash() throws {
        #expect(throws: SpawnFailure(executable: "/nonexistent/program", code: ENOENT)) {
            try ChildProcess(executable: "/nonexistent/program", arguments: [])
        }
        #expect(throws: SpawnFailure.self) { try LaunchedProcess.start(URL(fileURLWithPath: "/etc/hostname"), []) }
    }

    /// Standard input from bytes, output and errors captured apart or merged, a working folder,
    /// and output larger than a pipe holds (drained while the child writes, so it never blocks).
    @Test func inputOutputAndFolder() async throws {
        let echo = try await LaunchedProcess.run(
            Self.python, ["-c", "import sys; d = sys.stdin.read(); print(d.upper()); print('err', file=sys.stderr)"],
            input: .bytes(Data("hello".utf8)))
        #expect(echo.stdout == "HELLO\n" && echo.stderr == "err\n")

        let merged = try await LaunchedProcess.run(
            Self.python, ["-u", "-c", "import sys; print('a'); print('b', file=sys.stderr); print('c')"], errors: .merged)
        #expect(merged.stdout == "a\nb\nc\n")

        let folder = try await LaunchedProcess.run(URL(fileURLWithPath: "/bin/pwd"), [], directory: URL(fileURLWithPath: "/usr/share"))
        #expect(folder.stdout == "/usr/share\n")

        let big = try await LaunchedProcess.run(Self.python, ["-c", "import sys; sys.stdout.write('x' * 3_000_000)"])
        #expect(big.stdout.utf8.count == 3_000_000)
    }

    /// Waiting for a line acts on the child's output: the line, as soon as it is written, then
    /// nil at the end.
    @Test func linesAreReadAsTheyCome() async throws {
        let child = try LaunchedProcess.start(
            Self.python, ["-u", "-c", "import sys; print('port 1234'); sys.stdin.read(); print('bye')"], input: .pipe)
        let lines = child.standardOutput.lines()
        #expect(await lines.next() == "port 1234")
        #expect(child.isRunning)
        child.closeInput()
        #expect(await lines.next() == "bye")
        #expect(await lines.next() == nil)
        #expect(await child.exited() == 0)
        let found = await child.standardOutput.waitForOutput(timeout: .seconds(1)) { $0.contains("port 1234") }
        #expect(found != nil)
        #expect(await child.standardOutput.waitForOutput(timeout: .milliseconds(100)) { $0.contains("never") } == nil)
    }

    /// Text that came before the wait began is found at once, not at the deadline (was: the wait
    /// began with the next chunk, so a server that had printed its port and then kept quiet was
    /// waited for until the hang guard: a server-process test took 600 s instead of 0.7 s).
    @Test func whatIsThereAlreadyIsFoundWithoutWaitingForMore() async throws {
        let child = try LaunchedProcess.start(
            Self.python, ["-u", "-c", "import sys; print('port 1234'); sys.stdin.read()"], input: .pipe)
        defer { child.closeInput() }
        #expect(await child.standardOutput.lines().next() == "port 1234")
        // The child is quiet from here on: only the text already read can answer.
        let started = ContinuousClock.now
        let found = await child.standardOutput.waitForOutput(timeout: .seconds(120)) { $0.contains("port 1234") }
        #expect(found != nil)
        #expect(ContinuousClock.now - started < .seconds(60), "waited for more output than was needed")
        #expect(child.isRunning)
    }

    /// What crashed Foundation's `Process` in a parallel test run: many threads starting and
    /// reaping children at once. Every child starts, writes its own line and is reaped with its
    /// own status.
    @Test func manyStartsAtOnce() async throws {
        let outcomes = try await withThrowingTaskGroup(of: (Int, LaunchedProcess.Result).self) { group in
            for index in 0..<200 {
                group.addTask {
                    let result = try await LaunchedProcess.run(
                        URL(fileURLWithPath: "/bin/sh"), ["-c", "echo $0; exit $(($0 % 7))", String(index)])
                    return (index, result)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes.count == 200)
        for (index, result) in outcomes {
            #expect(result.stdout == "\(index)\n" && result.status == Int32(index % 7), "child \(index): \(result.termination)")
        }
    }

    static func readAll(_ descriptor: Int32) -> String {
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
