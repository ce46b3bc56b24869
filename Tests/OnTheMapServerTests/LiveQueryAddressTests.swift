import Foundation
import ServerTestSupport
import Testing

@testable import OnTheMapServer

/// LiveQuery's shares per address count an IPv6 client by its /64, as the login throttle does
/// (was: each full address, so one network, which has 2^64 of them, had as many shares as it
/// liked). The addresses come from a trusted proxy's X-Forwarded-For: loopback has one IPv6
/// address.
@Suite struct LiveQueryAddressTests {
    @Test func anIPv6NetworkHasOneShare() async throws {
        let server = try await TestServer.start { configuration in
            configuration.trustProxy = true
            configuration.liveQuery.connectionsPerAddress = 2
        }
        defer { Task { await server.stop() } }
        var open: [LiveQueryTestClient] = []
        for host in ["2001:db8:1:2::1", "2001:db8:1:2:ffff::9"] {
            let client = try LiveQueryTestClient(port: server.server.port, headers: ["X-Forwarded-For": host])
            client.send(json: ["op": "connect"])
            #expect(await client.next()?["op"] as? String == "connected", "\(host)")
            open.append(client)
        }
        // A third address of the same /64 is over its share; another /64 is not.
        let third = try LiveQueryTestClient(port: server.server.port, headers: ["X-Forwarded-For": "2001:db8:1:2::77"])
        let refusal = try #require(await third.next())
        #expect(refusal["op"] as? String == "error", "\(refusal)")
        #expect((refusal["error"] as? String)?.contains("from your address") == true, "\(refusal)")
        let other = try LiveQueryTestClient(port: server.server.port, headers: ["X-Forwarded-For": "2001:db8:1:3::1"])
        other.send(json: ["op": "connect"])
        #expect(await other.next()?["op"] as? String == "connected")
        _ = open
    }
}

/// A socket that sends nothing is closed once `connectSeconds` pass; one that connected stays.
@Suite struct LiveQueryConnectDeadlineTests {
    @Test func aSilentSocketIsClosedAConnectedOneStays() async throws {
        let server = try await TestServer.start { $0.liveQuery.connectSeconds = 1 }
        defer { Task { await server.stop() } }
        let silent = try LiveQueryTestClient(port: server.server.port)
        let connected = try LiveQueryTestClient(port: server.server.port)
        connected.send(json: ["op": "connect"])
        #expect(await connected.next()?["op"] as? String == "connected")
        #expect(await silent.next() == nil)  // the server ends it
        #expect(silent.endedByPeer || silent.closeCode != nil)
        // Well past the deadline, the connected socket still answers.
        connected.send(json: ["op": "subscribe", "requestId": 1, "query": ["className": "StudentLocation", "where": [:]]])
        #expect(await connected.next()?["op"] as? String == "subscribed")
    }
}
