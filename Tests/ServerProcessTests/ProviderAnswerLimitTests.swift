import Foundation
import ServerTestSupport
import StandIn
import Testing

/// A provider's answers are read with a 64 KB cap (streamed: reading stops there) and a 10 s
/// deadline for the whole exchange: a 300 MB userinfo answer and one dripped a byte at a time
/// are both refused (502) within the deadline, and the server stays small. (An answer of no
/// announced length is cut at the cap too, but FoundationNetworking queues what libcurl read
/// meanwhile: see Security.md, "What is not defended".)
@Suite struct ProviderAnswerLimitTests {
    static let cases: [(String, FloodingServer.Mode)] = [
        ("300 MB, announced", .bytes(300_000_000, announced: true)),
        ("a byte every 0.5 s", .drip(interval: 0.5)),
    ]

    /// The peak resident memory of a running process, in MB (`VmHWM`).
    static func peakMegabytes(_ pid: Int32) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes / 1024
    }

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
            let (reply, seconds) = try await BoundHTTP.timed(
                "POST", server.port, "/v1/session", json: #"{"oauth":{"provider":"github","access_token":"tok-1"}}"#)
            #expect(reply.status == 502, "\(name): \(reply.status)")
            #expect(seconds < 12, "\(name): answered after \(seconds) s")
            let peak = Self.peakMegabytes(server.process.process.processIdentifier)
            #expect((peak ?? 999) < 100, "\(name): the server peaked at \(peak ?? -1) MB")
        }
    }
}
