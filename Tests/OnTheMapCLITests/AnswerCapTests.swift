import Foundation
import Launcher
import ServerTestSupport
import StandIn
import Testing

/// The client reads a server's answer with an 8 MB cap and one deadline (15 s) for the whole
/// exchange: `onthemap list` against a 400 MB answer — announced, close-delimited or chunked — or
/// one dripped a byte at a time, says so and ends, under 100 MB (its peak resident size, from a
/// python3 parent's getrusage).
@Suite struct AnswerCapTests {
    static let cases: [(String, FloodingServer.Mode, String)] = [
        ("400 MB", .bytes(400_000_000, announced: true), "bigger than 8 MB"),
        ("400 MB, no length", .bytes(400_000_000, announced: false), "bigger than 8 MB"),
        ("400 MB, chunked", .chunked(400_000_000), "bigger than 8 MB"),
        ("a byte every 0.5 s", .drip(interval: 0.5), "did not answer in time"),
    ]

    @Test(arguments: 0..<cases.count)
    func listAgainstAHugeOrSlowAnswerEndsSmallAndSaysWhy(index: Int) async throws {
        let (name, mode, message) = Self.cases[index]
        let server = try FloodingServer(mode)
        defer { server.stop() }
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let script = """
            import resource, subprocess, sys
            run = subprocess.run(sys.argv[1:], capture_output=True)
            sys.stdout.buffer.write(run.stdout)
            sys.stderr.buffer.write(run.stderr)
            sys.stderr.write("\\nMAXRSS %d STATUS %d\\n" % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, run.returncode))
            """
        let arguments = ["python3", "-c", script, ListCommandTests.binary.path, "list", "--server", server.baseURL.absoluteString]
        let started = ContinuousClock.now
        let run = ListCommandTests.Run(
            try await ListCommandTests.start(arguments, dataHome: home, executable: URL(fileURLWithPath: "/usr/bin/env"))
                .finished())
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let summary = run.stderr.split(separator: "\n").last { $0.hasPrefix("MAXRSS ") }?.split(separator: " ") ?? []
        let megabytes = summary.count == 4 ? Double(summary[1]).map { $0 / 1024 } : nil
        #expect(summary.count == 4 && summary[3] != "0", "\(name): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(name): \(run.stderr)")
        #expect((megabytes ?? 999) < 100, "\(name): peaked at \(megabytes ?? -1) MB")
        // The whole exchange has one 15-second deadline; a deadline per read would never end the
        // drip (a byte every 0.5 s). 45 s tells the two apart on a loaded 2-core machine too,
        // where starting python3 and the binary beside 500 other tests took 21–28 s.
        #expect(seconds < 45, "\(name): ended after \(seconds) s")
    }
}
