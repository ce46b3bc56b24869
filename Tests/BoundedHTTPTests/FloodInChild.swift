import BoundedHTTP
import Foundation
import Launcher
import StandIn
import Testing

/// One exchange against a flood, run in a process of its own (this test binary again, on
/// `FloodChildTests/floodChild` alone): the test runner's peak resident memory is shared with
/// every suite running beside the one that asks, so only a child's own figure says what one
/// exchange held.
enum FloodInChild {
    static let urlVariable = "ONTHEMAP_BOUNDED_HTTP_FLOOD_URL"
    static let capVariable = "ONTHEMAP_BOUNDED_HTTP_FLOOD_CAP"
    static let caFileVariable = "ONTHEMAP_BOUNDED_HTTP_FLOOD_CA_FILE"
    static let reportVariable = "ONTHEMAP_BOUNDED_HTTP_FLOOD_REPORT"

    /// The exchange's outcome (`HTTPFailure`'s description, or "an answer of N bytes") and how
    /// many MB the child's peak resident memory grew during it.
    static func run(url: String, maxBytes: Int, caFile: String? = nil) async throws -> (outcome: String, growth: Double) {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("bounded-http-flood-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: report) }
        var variables = [urlVariable: url, capVariable: String(maxBytes), reportVariable: report.path]
        variables[caFileVariable] = caFile
        let status = try await LaunchedProcess.start(
            URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")),
            ["--testing-library", "swift-testing", "--filter", "FloodChildTests/floodChild"],
            environment: ProcessInfo.processInfo.environment.merging(variables) { $1 }, output: .discard, errors: .discard
        ).exited()
        #expect(status == 0)
        let lines = try String(contentsOf: report, encoding: .utf8).split(separator: "\n")
        let growth = try #require(lines.dropFirst().first.flatMap { Double($0) })
        return (String(lines.first ?? ""), growth)
    }

    /// This process's peak resident memory so far, in MB.
    static func peakResidentMegabytes() -> Double? { ProcessMemory.megabytes(getpid()) }
}

@Suite struct FloodChildTests {
    /// The child's side: one exchange, then its outcome and the growth of its peak resident
    /// memory, written to the file the parent names. Runs only when a parent asks.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[FloodInChild.urlVariable] != nil, "run by the flood tests"))
    func floodChild() async throws {
        let environment = ProcessInfo.processInfo.environment
        let url = try #require(environment[FloodInChild.urlVariable].flatMap(URL.init(string:)))
        let maxBytes = try #require(environment[FloodInChild.capVariable].flatMap { Int($0) })
        let report = try #require(environment[FloodInChild.reportVariable])
        let client = BoundedHTTPClient(caFile: environment[FloodInChild.caFileVariable])
        let before = try #require(FloodInChild.peakResidentMegabytes())
        let outcome: String
        do {
            let answer = try await client.exchange(HTTPRequest(url: url), maxBytes: maxBytes, deadline: .seconds(60))
            outcome = "an answer of \(answer.body.count) bytes"
        } catch {
            outcome = "\(error)"
        }
        let after = try #require(FloodInChild.peakResidentMegabytes())
        try "\(outcome)\n\(after - before)\n".write(toFile: report, atomically: true, encoding: .utf8)
    }
}
