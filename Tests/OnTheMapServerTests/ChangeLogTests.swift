import ClassRules
import Foundation
import Logging
import ServerTestSupport
import Testing

@testable import OnTheMapServer
@testable import ServerAdmin
@testable import ServerHTTP
@testable import ServerQuery

/// Every write reaches every instance's live subscribers through the change log that the
/// database's triggers keep (Docs/Architecture.md, "The change log"), decided for each subscriber
/// by the one rule on the row as stored — whoever wrote it: a request, another instance, an
/// operator's command run beside the server.
@Suite struct ChangeLogTests {
    typealias Client = LiveQueryTestClient

    /// A socket subscribed to every row, as `token`'s caller (anonymous without one).
    static func subscriber(port: Int, token: String? = nil) async throws -> Client {
        let client = try Client(port: port)
        var connect: [String: Any] = ["op": "connect"]
        if let token { connect["sessionToken"] = token }
        client.send(json: connect)
        #expect(await client.next()?["op"] as? String == "connected")
        client.send(json: ["op": "subscribe", "requestId": 1, "query": ["className": "StudentLocation", "where": [:]]])
        #expect(await client.next()?["op"] as? String == "subscribed")
        return client
    }

    static func objectId(_ message: [String: Any]?) -> String? { (message?["object"] as? [String: Any])?["objectId"] as? String }

    /// A class with a student (ada) and a moderator, and one row of ada's.
    struct Class {
        let server: TestServer
        let adaKey: String
        let ada: String
        let moderator: String
        let row: String

        static func start(_ backend: TestBackend, place: String = "Lisbon") async throws -> Class {
            let server = try await TestServer.start(backend: backend)
            let adaKey = try await server.addUser(email: "ada@example.com")
            _ = try await server.withDatabase {
                try await $0.addUser(
                    email: "mod@example.com", password: "correct horse", firstName: "M", lastName: "Od", role: "moderator")
            }
            let ada = try await WriteRulesTests.logIn(server, "ada@example.com")
            let moderator = try await WriteRulesTests.logIn(server, "mod@example.com")
            let row = try await AccessTests.post(server, key: adaKey, session: ada, place: place)
            return Class(server: server, adaKey: adaKey, ada: ada, moderator: moderator, row: row)
        }
    }

    /// The operator's commands run on their own connection to the database, as in another
    /// process: each reaches open sockets, decided by the rule (was: never sent at all).
    @Test(arguments: TestBackend.available) func theOperatorsCommandsReachLiveSubscribers(backend: TestBackend) async throws {
        let room = try await Class.start(backend)
        defer { Task { await room.server.stop() } }
        let anonymous = try await Self.subscriber(port: room.server.server.port)
        let moderator = try await Self.subscriber(port: room.server.server.port, token: room.moderator)

        try await room.server.withDatabase { try await $0.setHidden(objectId: room.row, reason: "not a real place") }
        let leave = await anonymous.next()
        #expect(leave?["op"] as? String == "leave")
        #expect(Self.objectId(leave) == room.row)
        let update = await moderator.next()
        #expect(update?["op"] as? String == "update")
        #expect((update?["object"] as? [String: Any])?["hidden"] as? Bool == true)

        try await room.server.withDatabase { try await $0.setHidden(objectId: room.row, reason: nil) }
        #expect(await anonymous.next()?["op"] as? String == "enter")

        _ = try await room.server.withDatabase { try await $0.setSuspended(keyOrEmail: "ada@example.com", suspended: true) }
        #expect(await anonymous.next()?["op"] as? String == "leave")
        _ = try await room.server.withDatabase { try await $0.setSuspended(keyOrEmail: "ada@example.com", suspended: false) }
        #expect(await anonymous.next()?["op"] as? String == "enter")

        try await room.server.withDatabase { try await $0.deleteLocation(objectId: room.row) }
        let delete = await anonymous.next()
        #expect(delete?["op"] as? String == "delete")
        #expect(Self.objectId(delete) == room.row)
    }

    /// Two instances on one PostgreSQL database: the hidden mark crosses with the change, so a
    /// hide on one is a `leave` on the other, and the owner's later edit of the hidden row reaches
    /// nobody there (was: `update`, and the edit sent to every subscriber).
    @Test(.enabled(if: TestBackend.postgresURL != nil)) func aHideOnOneInstanceLeavesTheSubscribersOfAnother() async throws {
        let room = try await Class.start(.postgres)
        defer { Task { await room.server.stop() } }
        var quiet = Logger(label: "second-instance")
        quiet.logLevel = .critical
        let second = try await EmbeddedServer.start(configuration: room.server.configuration, seedDemo: false, logger: quiet)
        defer { Task { await second.stop() } }
        let anonymous = try await Self.subscriber(port: second.port)

        let hide = try await RawHTTP.send(
            "POST", room.server.baseURL, "\(AccessTests.path)/\(room.row)/hide", headers: AccessTests.bearer(room.moderator),
            json: #"{"reason":"not a real place"}"#)
        #expect(hide.status == 200)
        let leave = await anonymous.next()
        #expect(leave?["op"] as? String == "leave")
        #expect(Self.objectId(leave) == room.row)

        let put = try await RawHTTP.send(
            "PUT", room.server.baseURL, "\(AccessTests.path)/\(room.row)", headers: AccessTests.bearer(room.ada),
            json: #"{"mapString":"SECRET-NEW-ADDRESS"}"#)
        #expect(put.status == 200)
        let bobKey = try await room.server.addUser(email: "bob@example.com")
        let bob = try await WriteRulesTests.logIn(room.server, "bob@example.com")
        let visible = try await AccessTests.post(room.server, key: bobKey, session: bob, place: "Oslo")
        let next = await anonymous.next()
        #expect(next?["op"] as? String == "create", "the hidden row's edit was not sent: \(String(describing: next))")
        #expect(Self.objectId(next) == visible)
    }

    /// An open socket follows its caller: a demoted moderator's subscription is sent `leave` for
    /// the hidden rows and no longer gets them; a session that ends ends the socket (was: the
    /// socket kept the moderator's view until it closed).
    @Test(arguments: TestBackend.available) func aSocketFollowsItsCallersRoleAndSession(backend: TestBackend) async throws {
        let room = try await Class.start(backend)
        defer { Task { await room.server.stop() } }
        let hide = try await RawHTTP.send(
            "POST", room.server.baseURL, "\(AccessTests.path)/\(room.row)/hide", headers: AccessTests.bearer(room.moderator),
            json: #"{"reason":"not a real place"}"#)
        #expect(hide.status == 200)
        let moderator = try await Self.subscriber(port: room.server.server.port, token: room.moderator)

        _ = try await room.server.withDatabase { try await $0.setRole(keyOrEmail: "mod@example.com", role: "student") }
        let leave = await moderator.next()
        #expect(leave?["op"] as? String == "leave")
        #expect(Self.objectId(leave) == room.row)
        moderator.send(json: ["op": "query", "requestId": 1])
        let page = await moderator.next(op: "result")
        #expect((page?["results"] as? [[String: Any]])?.isEmpty == true, "a student does not see another's hidden row")

        // The owner's edits of the hidden row now reach nobody but the owner.
        let put = try await RawHTTP.send(
            "PUT", room.server.baseURL, "\(AccessTests.path)/\(room.row)", headers: AccessTests.bearer(room.ada),
            json: #"{"mapString":"Porto"}"#)
        #expect(put.status == 200)

        // Suspending the account ends its sessions: the socket is told, then closed.
        _ = try await room.server.withDatabase { try await $0.setSuspended(keyOrEmail: "mod@example.com", suspended: true) }
        let ended = await moderator.next()
        #expect(ended?["op"] as? String == "error", "the edit of the hidden row was not sent: \(String(describing: ended))")
        #expect(ended?["code"] as? Int == 209)
        #expect(await moderator.next() == nil)
        #expect(moderator.closeCode == 1000)
    }

    /// Logging out (`DELETE /session`) ends the sockets opened with that session.
    @Test(arguments: TestBackend.available) func loggingOutEndsTheSessionsSockets(backend: TestBackend) async throws {
        let room = try await Class.start(backend)
        defer { Task { await room.server.stop() } }
        let socket = try await Self.subscriber(port: room.server.server.port, token: room.ada)
        let logout = try await RawHTTP.send("DELETE", room.server.baseURL, "/v1/session", headers: AccessTests.bearer(room.ada))
        #expect(logout.status == 200, "\(logout.text)")
        let ended = await socket.next()
        #expect(ended?["op"] as? String == "error")
        #expect(ended?["code"] as? Int == 209)
    }

    /// A session that runs out ends its sockets when it does, with no other change of its
    /// account (was: only at the account's next change, or never).
    @Test(arguments: TestBackend.available) func anExpiredSessionEndsItsSockets(backend: TestBackend) async throws {
        // A session of a few seconds, so that the test is short; on a loaded machine logging in,
        // connecting and subscribing can take longer than that, and then the test starts again
        // with a session that lives twice as long (the rule is the same whatever its length).
        for lifetime in [4.0, 8, 16, 32] {
            let server = try await TestServer.start(backend: backend, configure: { $0.sessionLifetime = lifetime })
            defer { Task { await server.stop() } }
            _ = try await server.addUser(email: "ada@example.com")
            let ada = try await WriteRulesTests.logIn(server, "ada@example.com")
            let socket = try Client(port: server.server.port)
            socket.send(json: ["op": "connect", "sessionToken": ada])
            guard await socket.next()?["op"] as? String == "connected" else { continue }
            socket.send(json: ["op": "subscribe", "requestId": 1, "query": ["className": "StudentLocation", "where": [:]]])
            guard await socket.next()?["op"] as? String == "subscribed" else { continue }
            // Nothing else happens: the next message is the end of the session. A read gives up
            // only after `silenceLimit` seconds of silence, longer than the session lives.
            let deadline = Date().addingTimeInterval(lifetime + 30)
            var ended: [String: Any]?
            while ended == nil, !socket.endedByPeer, socket.closeCode == nil, Date() < deadline { ended = await socket.next() }
            #expect(ended?["op"] as? String == "error", "\(String(describing: ended))")
            #expect(ended?["code"] as? Int == 209)
            #expect(await socket.next() == nil)
            return
        }
        Issue.record("no session lived long enough to be subscribed with")
    }

    /// The per-socket and per-address bounds on regex work, and the patterns no bound can
    /// bound, refused at `subscribe` (was: 25 such subscriptions made one PUT take 5.9 s).
    @Test func subscriptionsWhoseRegexWorkIsUnboundedAreRefused() async throws {
        let server = try await TestServer.start(openWrites: true)
        defer { Task { await server.stop() } }
        let client = try Client(port: server.server.port)
        client.send(json: ["op": "connect"])
        #expect(await client.next()?["op"] as? String == "connected")
        func subscribe(_ id: Int, _ patterns: [String]) async -> [String: Any]? {
            let clauses = patterns.map { ["mapString": ["$regex": $0]] }
            let condition: [String: Any] = clauses.isEmpty ? [:] : ["$or": clauses]
            client.send(json: ["op": "subscribe", "requestId": id, "query": ["className": "StudentLocation", "where": condition]])
            return await client.next()
        }
        let catastrophic = await subscribe(1, ["^(.|.)*X", "^(.|.)*Y", "^(.|.)*Z", "^(.|.)*W"])
        #expect(catastrophic?["op"] as? String == "error")
        #expect(catastrophic?["code"] as? Int == 124)
        #expect(await subscribe(2, ["Lis", "bon", "Por", "to"])?["op"] as? String == "subscribed")
        #expect(await subscribe(3, ["Ber", "lin", "Os", "lo"])?["op"] as? String == "subscribed")
        let ninth = await subscribe(4, ["Rome"])
        #expect(ninth?["op"] as? String == "error")
        #expect(ninth?["code"] as? Int == 124)
        #expect(await subscribe(5, [])?["op"] as? String == "subscribed", "a subscription without $regex is still let in")

        // The socket still works, and a write still reaches it.
        let reply = try await RawHTTP.send(
            "POST", server.baseURL, "/parse/classes/StudentLocation",
            json: #"{"uniqueKey":"k","firstName":"A","lastName":"B","mapString":"Lisbon","latitude":1,"longitude":2}"#)
        #expect(reply.status == 201)
        #expect(await client.next()?["op"] as? String == "create")
    }

    @Test(arguments: [
        ("^(.|.)*X", true), ("(a+)+$", true), ("(\\w*)*", true), ("(x|xy){2,}", true), ("(a)\\1", true),
        (".*a.*b.*c.*d.*e", true), ("Lisbon", false), ("^Lis(bon|boa)$", false), ("[a-z]+ville", false), ("(ab)+", false),
        ("a.*b.*c", false), ("[(|)*]+x", false), ("\\(a|b\\)*", false), ("(a{2})*", false), ("(a{1,2})*", true),
    ])
    func regexCost(pattern: String, unbounded: Bool) {
        #expect(RegexCost.isUnbounded(pattern) == unbounded)
    }

    /// What would make ICU read a pattern otherwise than RegexCost does is refused whole (was:
    /// `(?x)^(.+) +X$` passed as harmless, and each later write cost 3.2 s in the change follower).
    @Test(arguments: [
        ("(?x)^(.+) +X$", "", "inline flags"), ("^(?i)(a+)+$", "", "inline flags"), ("(?-i:a)", "", "inline flags"),
        ("a(?#)(a+)+", "", "(?#…) comments"), ("\\Q[\\E(a+)+]", "", "\\Q…\\E quoting"), ("^(.+) +X$", "x", "the x option"),
        ("Lisbon", "", nil), ("^Lis(?:bon|boa)$", "i", nil), ("(?=a)b", "", nil), ("(?<!a)b", "", nil), ("\\(x\\)", "", nil),
    ] as [(String, String, String?)])
    func regexFeaturesRegexCostCannotRead(pattern: String, options: String, feature: String?) async throws {
        let found = RegexCost.unreadFeature(pattern, options: options)
        #expect(feature.map { found?.hasPrefix($0) == true } ?? (found == nil), "\(pattern): \(String(describing: found))")
    }

    @Test func aSubscriptionWhosePatternRegexCostCannotReadIsRefused() async throws {
        let server = try await TestServer.start(openWrites: true)
        defer { Task { await server.stop() } }
        let client = try Client(port: server.server.port)
        client.send(json: ["op": "connect"])
        #expect(await client.next()?["op"] as? String == "connected")
        let cases: [(Int, [String: Any])] = [
            (1, ["$regex": "(?x)^(.+) +X$"]), (2, ["$regex": "^(.+) +X$", "$options": "x"]), (3, ["$regex": "\\Q[\\E(a+)+]"]),
        ]
        for (id, regex) in cases {
            client.send(json: ["op": "subscribe", "requestId": id, "query": ["className": "StudentLocation", "where": ["mapString": regex]]])
            let reply = await client.next()
            #expect(reply?["code"] as? Int == 124, "\(regex): \(String(describing: reply))")
            #expect((reply?["error"] as? String)?.contains("may not use") == true, "\(String(describing: reply))")
        }
        client.send(json: ["op": "subscribe", "requestId": 4, "query": ["className": "StudentLocation", "where": ["mapString": ["$regex": "^Lis"]]]])
        #expect(await client.next()?["op"] as? String == "subscribed")
    }
}

/// The one write path (`ClassWrites`) checks the limits REST and the command line share.
@Suite struct WritePathTests {
    /// A hide reason of spaces: REST refused it, the command line took it (was); both refuse it now.
    @Test(arguments: TestBackend.available) func theCommandLineRefusesTheReasonsRESTRefuses(backend: TestBackend) async throws {
        let room = try await ChangeLogTests.Class.start(backend)
        defer { Task { await room.server.stop() } }
        for reason in ["   ", "", String(repeating: "x", count: ClassWrites.maxReasonBytes + 1)] {
            await #expect(throws: ServerDatabase.LocationError.self) {
                try await room.server.withDatabase { try await $0.setHidden(objectId: room.row, reason: reason) }
            }
            let rest = try await RawHTTP.send(
                "POST", room.server.baseURL, "\(AccessTests.path)/\(room.row)/hide", headers: AccessTests.bearer(room.moderator),
                json: #"{"reason":"\#(reason)"}"#)
            #expect(rest.status == 400)
        }
        let rows = try await room.server.withDatabase { try await $0.locations(account: nil, hiddenOnly: true) }
        #expect(rows.isEmpty, "nothing was hidden")
    }

    /// A write to a row the caller may not see answers 404, like a read (was: 403, which told that
    /// the hidden row exists); a visible row of another's still answers 403.
    @Test(arguments: TestBackend.available) func aWriteToARowTheCallerMayNotSeeIsNotFound(backend: TestBackend) async throws {
        let room = try await ChangeLogTests.Class.start(backend)
        defer { Task { await room.server.stop() } }
        _ = try await room.server.addUser(email: "bob@example.com")
        let bob = try await WriteRulesTests.logIn(room.server, "bob@example.com")
        let path = "\(AccessTests.path)/\(room.row)"
        #expect(try await RawHTTP.send("PUT", room.server.baseURL, path, headers: AccessTests.bearer(bob), json: #"{"mapString":"X"}"#).status == 403)
        try await room.server.withDatabase { try await $0.setHidden(objectId: room.row, reason: "spam") }
        for method in ["GET", "PUT", "DELETE"] {
            let reply = try await RawHTTP.send(
                method, room.server.baseURL, path, headers: AccessTests.bearer(bob), json: method == "PUT" ? #"{"mapString":"X"}"# : nil)
            #expect(reply.status == 404, "\(method)")
            #expect(AccessTests.code(reply) == 101, "\(method)")
        }
        let owners = try await RawHTTP.send("PUT", room.server.baseURL, path, headers: AccessTests.bearer(room.ada), json: #"{"mapString":"Y"}"#)
        #expect(owners.status == 200, "the owner still may")
    }
}
