import Foundation
import ServerTestSupport
import StandIn
import Testing

/// A provider's answers are read with a 64 KB cap and a 10 s deadline for the whole exchange,
/// with backpressure (`BoundedHTTPProviderExchange`): a 300 MB userinfo answer — announced, chunked,
/// or of no announced length, sent as fast as loopback takes it — and one dripped a byte at a time
/// are each refused (502) within the deadline, and the server's memory barely moves.
@Suite struct ProviderAnswerLimitTests {
    static let cases: [(String, FloodingServer.Mode)] = [
        ("300 MB, announced", .bytes(300_000_000, announced: true)),
        ("300 MB, no length, as fast as it goes", .bytes(300_000_000, announced: false)),
        ("300 MB, chunked, as fast as it goes", .chunked(300_000_000)),
        ("a byte every 0.5 s", .drip(interval: 0.5)),
    ]

    @Test(arguments: 0..<cases.count)
    func aHugeOrSlowProviderAnswerIsRefusedWithinTheDeadline(index: Int) async throws {
        try await HeavyTests.exclusively {
            let (name, mode) = Self.cases[index]
            let provider = try FloodingServer(mode)
            defer { provider.stop() }
            let base = provider.baseURL.absoluteString
            let server = try await AbuseServer.start(
                .sqlite,
                [
                    "--oauth-provider", "github", "--oauth-client-id", "c", "--oauth-device-url", base + "/device",
                    "--oauth-token-url", base + "/token", "--oauth-userinfo-url", base + "/user",
                    "--oauth-audience-check", "tokeninfo", "--oauth-audience-url", base + "/tokeninfo",
                ])
            defer { Task { await server.stop() } }
            let pid = server.process.processIdentifier
            let before = try #require(ProcessMemory.megabytes(pid))
            let (reply, seconds) = try await BoundHTTP.timed(
                "POST", server.port, "/v1/session", json: #"{"oauth":{"provider":"github","access_token":"tok-1"}}"#)
            #expect(reply.status == 502, "\(name): \(reply.status)")
            #expect(seconds < 12, "\(name): answered after \(seconds) s")
            if case .drip = mode {} else {
                // Refused at the cap, not at the deadline.
                #expect(seconds < 5, "\(name): answered after \(seconds) s")
            }
            let peak = try #require(ProcessMemory.megabytes(pid))
            let resident = try #require(ProcessMemory.megabytes(pid, "VmRSS"))
            #expect(peak < 100, "\(name): the server peaked at \(peak) MB")
            // The cap (64 KB) and what is in flight below it: never the answer's size.
            #expect(peak - before < 16, "\(name): the server's peak grew from \(before) MB to \(peak) MB")
            #expect(resident - before < 16, "\(name): the server holds \(resident) MB, \(before) MB before")
        }
    }
}
