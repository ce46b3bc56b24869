import ClassRules
import Foundation
import HTTPTypes
import Hummingbird
import OnTheMapModels
import ServerConfig
import ServerSessions
import ServerStorage

/// `POST …/users`: sign-up under the server's policy (`--signup open|invite|closed`) and the
/// per-address limit, every answer behind the `)]}'` prefix.
struct SignUpController: Sendable {
    let configuration: ServerConfiguration
    let sessions: SessionAuthority
    let throttle: LoginThrottle
    /// The login answer for the new account (201).
    let respond: @Sendable (Account, HTTPResponse.Status) async throws -> Response

    /// Creates an account and logs into it (201, same body as a login). Refused: closed → 403;
    /// invite mode without a working code → 403 (`parameter: "invite"`); more than the allowed
    /// sign-ups without a working invite from the address this hour → 429 with `Retry-After`.
    /// The invite is spent only with the account written (one transaction).
    func signUp(_ request: Request, address: String?) async throws -> Response {
        guard configuration.signUp != .closed else {
            throw APIFailure.udacity(.forbidden, "Sign-up is closed on this server: ask its operator for an account.")
        }
        var request = request
        let body = try await request.jsonBody(
            limit: configuration.maxBodyBytes, invalid: .udacity(.badRequest, "The request body is not valid JSON."))
        func field(_ name: String) throws -> String {
            guard case .string(let text) = body[name] else {
                throw APIFailure.udacity(.badRequest, "Missing parameter '\(name)'", parameter: name)
            }
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let email = try field("email")
        let firstName = try field("first_name")
        let lastName = try field("last_name")
        guard case .string(let password) = body["password"] else {
            throw APIFailure.udacity(.badRequest, "Missing parameter 'password'", parameter: "password")
        }
        if let problem = AccountRules.emailProblem(email) { throw APIFailure.udacity(.badRequest, problem, parameter: "email") }
        if let problem = AccountRules.passwordProblem(password) {
            throw APIFailure.udacity(.badRequest, problem, parameter: "password")
        }
        for (name, value) in [("first_name", firstName), ("last_name", lastName)] {
            let what = name.replacingOccurrences(of: "_", with: " ")
            if let problem = AccountRules.nameProblem(value, what, maxBytes: configuration.maxStringBytes) {
                throw APIFailure.udacity(.badRequest, problem, parameter: name)
            }
        }
        var invite: String?
        if configuration.signUp == .invite {
            guard case .string(let code) = body["invite"], !code.isEmpty else {
                throw APIFailure.udacity(.forbidden, "Sign-up needs an invite code on this server.", parameter: "invite")
            }
            invite = InviteCode.hash(code)
        }
        let refusedInvite = APIFailure.udacity(.forbidden, "This invite code is not valid, used up or expired.", parameter: "invite")
        // A working invite is the operator's own permission: it is not counted against the address,
        // so junk sign-ups from a classroom's shared address cannot block a classmate's invite.
        // Everything else (open sign-ups, wrong codes) is counted before the password is hashed.
        var usable = false
        if let invite { usable = try await sessions.storage.inviteUsable(codeHash: invite, now: Date().timeIntervalSince1970) }
        if !usable { try await throttle.admitSignUp(address: address) }
        if invite != nil, !usable { throw refusedInvite }
        do {
            let account = try await sessions.createAccount(
                email: email, password: password, firstName: firstName, lastName: lastName, spendingInvite: invite,
                // A new user, who has no session yet: the rule lets anyone create an account.
                try Access.permit(.createAccount, by: .anonymous))
            return try await respond(account, .created)
        } catch StorageError.duplicateEmail {
            throw APIFailure.udacity(.conflict, "An account with this email already exists.", parameter: "email")
        } catch StorageError.inviteNotUsable {
            // Its last use went to another sign-up meanwhile.
            throw refusedInvite
        }
    }
}
