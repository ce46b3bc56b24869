import ClassRules
import Foundation
import Testing

@testable import OnTheMapServer
@testable import ServerHTTP
@testable import ServerQuery
@testable import ServerSessions
@_spi(WritePath) @testable import ServerStorage

/// The small pieces the server's security rests on: SHA-256, sealed session ids, how client
/// addresses are counted, the hash gate, and the data folder's mode.
@Suite(.serialized) struct SecurityPrimitivesTests {
    @Test func sha256MatchesTheStandardVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // RFC 4231 test case 2 (HMAC-SHA256, Facebook's appsecret_proof).
        #expect(
            SHA256.hmacHex(key: "Jefe", message: "what do ya want for nothing?")
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // Exactly one block of padding beyond 55 bytes, and a multi-block message.
        #expect(SHA256.hex(String(repeating: "a", count: 56)) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func aSealedIdOpensOnlyWithItsToken() {
        let id = RandomID.alphanumeric(32)
        let token = RandomID.alphanumeric(32)
        let sealed = SessionSeal.seal(id: id, xsrfToken: token)
        #expect(sealed.count == 64 && !sealed.contains(id))
        #expect(SessionSeal.unseal(sealed, xsrfToken: token) == id)
        #expect(SessionSeal.unseal(sealed, xsrfToken: RandomID.alphanumeric(32)) != id)
        #expect(SessionSeal.unseal("zz", xsrfToken: token) == nil)
    }

    @Test func anIPv6AddressCountsByItsSlash64() {
        #expect(ClientAddress.subject("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(ClientAddress.subject("2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64")
        #expect(ClientAddress.subject("2001:db8:1:3::1") == "2001:db8:1:3::/64")
        #expect(ClientAddress.subject("::ffff:203.0.113.7") == "203.0.113.7")
        #expect(ClientAddress.subject("203.0.113.7") == "203.0.113.7")
        #expect(ClientAddress.subject(nil) == "unknown")
        #expect(ClientAddress.subject("\u{1B}]0;x\u{07}") == "]0;x")
        #expect(ClientAddress.isLoopbackOrPrivate("127.0.0.1") && ClientAddress.isLoopbackOrPrivate("10.1.2.3"))
        #expect(ClientAddress.isLoopbackOrPrivate("192.168.0.9") && ClientAddress.isLoopbackOrPrivate("fd00::1"))
        #expect(!ClientAddress.isLoopbackOrPrivate("203.0.113.7") && !ClientAddress.isLoopbackOrPrivate("172.32.0.1"))
    }

    @Test func theHashGateRunsAFewQueuesAFewAndRefusesTheRest() async throws {
        let gate = HashGate(running: 1, waiting: 2, maxWait: .seconds(600))
        #expect(gate.waiting == 0)
        let release = Latch()
        let started = Latch()
        // Holds the one place until released.
        let holder = Task { try await gate.run("test") { started.open(); release.wait(); return 1 } }
        await started.opened()
        let waiters = (0..<2).map { _ in Task { try await gate.run("test") { 2 } } }
        while gate.waiting < 2 { await Task.yield() }
        await #expect(throws: HashGate.Busy.self) { try await gate.run("test") { 3 } }
        release.open()
        #expect(try await holder.value == 1)
        for waiter in waiters { #expect(try await waiter.value == 2) }
    }

    /// The gates' refusals, now thrown by targets below the API (`HashGate.Busy`, and the
    /// expensive-query gate's `QueryRefusal`), are answered as the API answered them: 503 with
    /// `Retry-After: 1`, Udacity-style for a hash, Parse's 155 for a list query.
    @Test func theGatesRefusalsAreTheAPIs503s() {
        let hash = HashGate.Busy().failure
        #expect(hash.status == .serviceUnavailable)
        #expect(hash.headers[.retryAfter] == "1")
        guard case .udacity(nil, "The server is busy. Try again in 1 second.") = hash.body else {
            Issue.record("the hash gate's refusal is \(hash.body)")
            return
        }
        let list = APIFailure(ExpensiveQueryGate.busy)
        #expect(list.status == .serviceUnavailable)
        #expect(list.headers[.retryAfter] == "1")
        guard case .parse(155, "too many expensive queries at once; retry later") = list.body else {
            Issue.record("the expensive-query gate's refusal is \(list.body)")
            return
        }
        // A `where` refused by the query language is still a 400 with Parse's code.
        let query = APIFailure(QueryRefusal.queryTooExpensive())
        #expect(query.status == .badRequest && query.headers[.retryAfter] == nil)
    }

    @Test func aHashThatWaitsTooLongIsRefused() async throws {
        let gate = HashGate(running: 1, waiting: 1, maxWait: .milliseconds(50))
        let release = Latch()
        let started = Latch()
        let holder = Task { try await gate.run("test") { started.open(); release.wait(); return 1 } }
        await started.opened()
        await #expect(throws: HashGate.Busy.self) { try await gate.run("test") { 2 } }
        #expect(gate.waiting == 0)
        release.open()
        #expect(try await holder.value == 1)
        #expect(try await gate.run("test") { 3 } == 3)
    }

    @Test func aNewDataFolderIs0700AndTheDatabase0600() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-mode-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let path = base.appendingPathComponent("data/server.sqlite").path
        let storage = try SQLiteStorage(path: path)
        defer { try? storage.pool.close() }
        let folderMode = try FileManager.default.attributesOfItem(atPath: base.appendingPathComponent("data").path)[.posixPermissions]
        #expect(folderMode as? Int == 0o700)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }

    @Test func passwordsWithNULAreRefused() {
        #expect(AccountRules.passwordProblem("correct\u{0}horse") != nil)
        #expect(AccountRules.passwordProblem("correct horse") == nil)
    }
}

/// A one-shot gate: the hash blocks on it on NIO's thread pool; the test awaits it in a task.
final class Latch: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks the calling thread (a thread-pool thread, never a task's) until open.
    func wait() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    /// Waits in a task, without blocking its thread, until open.
    func opened() async {
        while !(condition.withLock { isOpen }) { await Task.yield() }
    }
}
