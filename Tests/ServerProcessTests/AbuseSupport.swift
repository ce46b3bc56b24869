import Foundation
import ServerTestSupport

/// A real `onthemap-server` process on a fresh database of `backend`, for the abuse suite.
struct AbuseServer {
    let process: ServerProcess
    let backend: TestBackend
    let database: String
    let directory: URL

    var port: Int { process.port }

    static func start(_ backend: TestBackend, _ arguments: [String] = []) async throws -> AbuseServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-abuse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = try await backend.makeDatabase(in: directory)
        let process = try await ServerProcess.start(database: database, arguments: arguments)
        return AbuseServer(process: process, backend: backend, database: database, directory: directory)
    }

    func stop() async {
        process.terminate()
        await backend.dropDatabase(database)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Signs up `email` (password `correct horse`) over HTTP; returns the answer.
    func signUp(_ email: String, invite: String? = nil, from source: String = "127.0.0.1") async throws -> RawHTTP.Reply {
        let inviteField = invite.map { #","invite":"\#($0)""# } ?? ""
        return try await BoundHTTP.send(
            "POST", port, "/v1/users",
            json: #"{"email":"\#(email)","password":"correct horse","first_name":"Ada","last_name":"Lovelace"\#(inviteField)}"#,
            from: source)
    }

    /// A login for `email` with `password` from `source`.
    func logIn(_ email: String, _ password: String, from source: String = "127.0.0.1") async throws -> RawHTTP.Reply {
        try await timedLogIn(email, password, from: source).reply
    }

    /// `logIn`, and how long the answer took (`BoundHTTP.timed`).
    func timedLogIn(_ email: String, _ password: String, from source: String = "127.0.0.1") async throws
        -> (reply: RawHTTP.Reply, seconds: Double)
    {
        try await BoundHTTP.timed(
            "POST", port, "/v1/session", json: #"{"udacity":{"username":"\#(email)","password":"\#(password)"}}"#, from: source)
    }

    /// How many password hashes of `kind` the server ran, from its `/metrics`.
    func passwordHashes(_ kind: String) async throws -> Int {
        let metrics = try await BoundHTTP.send("GET", port, "/metrics").text
        let line = metrics.split(separator: "\n").first {
            $0.hasPrefix("onthemap_password_hashes_total") && $0.contains(#"kind="\#(kind)""#)
        }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }
}

/// The statuses of many concurrent requests, and how long each took.
struct Flood {
    var statuses: [Int] = []
    var seconds: [Double] = []

    /// Sends `count` requests made by `request(i)` at once; returns when every one is answered.
    static func run(
        _ count: Int, _ request: @escaping @Sendable (Int) async throws -> (reply: RawHTTP.Reply, seconds: Double)
    ) async throws -> Flood {
        try await withThrowingTaskGroup(of: (Int, Double).self) { group in
            for index in 0..<count {
                group.addTask {
                    let (reply, seconds) = try await request(index)
                    return (reply.status, seconds)
                }
            }
            var flood = Flood()
            for try await (status, seconds) in group {
                flood.statuses.append(status)
                flood.seconds.append(seconds)
            }
            return flood
        }
    }

    func count(_ status: Int) -> Int { statuses.filter { $0 == status }.count }
}
