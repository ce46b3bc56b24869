import ClassRules
import Foundation
import OnTheMapModels
import ServerSessions
import ServerStorage

extension SessionAuthority {
    /// The account linked to the provider identity of `profile`; on its first login, a new account
    /// made from the profile, with no password (password login is refused until
    /// `user reset-password` sets one).
    func account(for profile: ProviderProfile) async throws -> Account {
        // Twice at most: when two first logins of one person race, the loser finds the winner's account.
        for _ in 0..<2 {
            if let key = try await storage.accountKey(for: profile.identity), let account = try await storage.account(key: key) {
                return account
            }
            let account = Account(
                key: RandomID.accountKey(), email: profile.identity.accountEmail, passwordHash: "",
                firstName: profile.firstName.isEmpty ? profile.identity.subject : profile.firstName, lastName: profile.lastName,
                createdAt: WireDate.string(from: Date()))
            do {
                // A new user, who has no session yet: the rule lets anyone create an account.
                try await writes.createAccount(account, linking: profile.identity, try Access.permit(.createAccount, by: .anonymous))
                return account
            } catch StorageError.duplicateIdentity {
                continue
            }
        }
        throw APIFailure.udacity(.internalServerError, "The account could not be created. Try again.")
    }
}
