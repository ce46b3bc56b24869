import Foundation
import Testing

/// The app warns once on stderr, before curses would start, when it is about to send a password
/// over plain http:// to a host that is not loopback (issue 9, item 7). Without a terminal the
/// app then refuses to start, which is what lets the real binary be checked here.
@Suite struct PlainHTTPWarningTests {
    func stderr(server: String) async throws -> String {
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try await ListCommandTests.run(["--server", server], dataHome: home)
        #expect(result.status == 1)
        #expect(result.stderr.contains("the app needs a terminal"))
        return result.stderr
    }

    @Test(arguments: ["http://192.0.2.10:8080", "http://class.example.org", "HTTP://127.0.0.1.example.org:80"])
    func onceForPlainHTTPToAnotherMachine(_ server: String) async throws {
        let text = try await stderr(server: server)
        let warnings = text.components(separatedBy: "\n").filter { $0.contains("Plain http://") }
        #expect(warnings.count == 1, "\(text)")
        #expect(warnings.first?.hasPrefix("onthemap: warning: Plain http:// to ") == true)
        #expect(warnings.first?.contains("your password would cross the network unencrypted") == true)
    }

    @Test(arguments: [
        "http://127.0.0.1:8080", "http://127.8.9.10:8080", "http://localhost:8080", "http://LOCALHOST.",
        "http://[::1]:8080", "https://class.example.org",
    ])
    func noneForLoopbackOrHTTPS(_ server: String) async throws {
        #expect(!(try await stderr(server: server)).contains("Plain http://"))
    }
}
