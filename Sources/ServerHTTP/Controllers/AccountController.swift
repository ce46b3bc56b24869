import ClassRules
import Foundation
import HTTPTypes
import Hummingbird
import OnTheMapModels
import ServerConfig
import ServerSessions
import ServerStorage
import struct ServerStorage.AccountDeletion

/// "Your data is yours" (Docs/Access.md): an account deletes itself, or takes everything the
/// server holds of it. Udacity-style answers behind the `)]}'` prefix, like the other users routes.
package struct AccountController: Sendable {
    let storage: any ServerStorage
    let writes: ClassWrites
    let configuration: ServerConfiguration
    let sessions: SessionAuthority
    let callers: CallerResolver
    let throttle: LoginThrottle
    let answers: ListAnswerCache

    package init(
        storage: any ServerStorage, writes: ClassWrites, configuration: ServerConfiguration, sessions: SessionAuthority,
        callers: CallerResolver, throttle: LoginThrottle, answers: ListAnswerCache
    ) {
        self.storage = storage
        self.writes = writes
        self.configuration = configuration
        self.sessions = sessions
        self.callers = callers
        self.throttle = throttle
        self.answers = answers
    }

    package func register(on router: Router<AppRequestContext>, paths: RequestPath.Accounts) {
        router.delete(RouterPath(paths.user(":key"))) { request, context in
            try await deleteAccount(
                request, key: try context.parameters.require("key"),
                address: context.clientAddress(request, trustProxy: configuration.trustProxy))
        }
        router.get(RouterPath(paths.export(":key"))) { request, context in
            try await export(request, key: try context.parameters.require("key"))
        }
    }

    /// The account of the path and its caller, when the caller is that account; else 403.
    private func ownAccount(_ request: Request, key: String) async throws -> (account: Account, caller: Caller) {
        let caller = try await callers.reader(request)
        guard caller.accountKey == key, let account = try await storage.account(key: key) else {
            throw APIFailure.udacity(.forbidden, "Only the account itself may do this: send its session.")
        }
        return (account, caller)
    }

    /// Deletes the account, its rows and its sessions. The password is checked again (and
    /// counted like a login) unless the account has none (made from a provider profile).
    private func deleteAccount(_ request: Request, key: String, address: String?) async throws -> Response {
        var request = request
        let (account, caller) = try await ownAccount(request, key: key)
        if !account.passwordHash.isEmpty {
            let body = try await request.jsonBody(
                limit: configuration.maxBodyBytes, invalid: .udacity(.badRequest, "The request body is not valid JSON.")
            )
            guard case .string(let password) = body["password"], password.utf8.count <= 1024 else {
                throw APIFailure.udacity(
                    .badRequest, "Send the account's password: {\"password\":\"…\"}.", parameter: "password")
            }
            guard !CredentialText.hasNUL(password) else {
                throw APIFailure.udacity(.badRequest, "A credential must not contain a NUL character.", parameter: "password")
            }
            let admission = try await throttle.admitLogin(account: account, email: account.email, address: address)
            guard try await sessions.verify(account: account, password: password)?.key == key else {
                throw APIFailure.udacity(.forbidden, "The password is not right.")
            }
            try await throttle.loginSucceeded(admission)
        }
        defer { answers.invalidate() }
        let deleted: AccountDeletion
        do {
            deleted = try await writes.deleteAccount(key: key, try Access.permit(.deleteAccount(key: key), by: caller))
        } catch WriteRefusal.notFound {
            throw APIFailure.udacity(.notFound, "User not found.")
        }
        return JSONResponse.raw(
            Array(#"{"deleted":{"locations":\#(deleted.locations),"sessions":\#(deleted.sessions)}}"#.utf8),
            prefixed: true)
    }

    /// `{"account":{…},"locations":[…]}`: the account (never the password hash) and every row
    /// of it, hidden ones marked.
    private func export(_ request: Request, key: String) async throws -> Response {
        let account = try await ownAccount(request, key: key).account
        let rows = try await storage.locations(
            .rows(of: key, order: [.init(field: .createdAt, descending: false)], limit: Self.maxExportedRows)
        ).rows
        let exported = ExportedAccount(
            key: account.key, email: account.email, firstName: account.firstName, lastName: account.lastName,
            role: account.role.rawValue, createdAt: account.createdAt)
        var json = LocationJSON(capacity: rows.count * 320 + 32)
        json.writeList(rows, count: nil, keys: nil)
        // writeList's `{"results":[…]}` becomes `"locations":[…]}`.
        let bytes =
            Array(#"{"account":"#.utf8) + Array(try JSONEncoder().encode(exported)) + Array(#","locations":"#.utf8)
            + json.bytes.dropFirst(#"{"results":"#.utf8.count)
        return JSONResponse.raw(bytes, prefixed: true)
    }

    /// The most rows an export holds (far above the fair share; rows written under open writes
    /// or imported may exceed it).
    static let maxExportedRows = 10_000
}

/// The account in an export.
struct ExportedAccount: Codable, Sendable {
    var key: String
    var email: String
    var firstName: String
    var lastName: String
    var role: String
    var createdAt: String
}
