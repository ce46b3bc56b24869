/// A person as a login provider knows them: the provider's name (`facebook`, `github`) and its
/// user id. Linked to one account in the `provider_identity` table.
public struct ProviderIdentity: Sendable, Hashable {
    package var provider: String
    package var subject: String

    package init(provider: String, subject: String) {
        self.provider = provider
        self.subject = subject
    }

    /// The placeholder in the account's email column: not an address (no `@`), so sign-up can
    /// never claim it, and unique per identity.
    package var accountEmail: String { provider + ":" + subject }

    /// The same statement for SQLite and PostgreSQL (idempotent).
    package static let table = """
        CREATE TABLE IF NOT EXISTS provider_identity (
            provider TEXT NOT NULL,
            subject TEXT NOT NULL,
            account_key TEXT NOT NULL REFERENCES account(key) ON DELETE CASCADE,
            PRIMARY KEY (provider, subject)
        )
        """
}
