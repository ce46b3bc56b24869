/// A person as a login provider knows them: the provider's name (`facebook`, `github`) and its
/// user id. Linked to one account in the `provider_identity` table.
struct ProviderIdentity: Sendable, Hashable {
    var provider: String
    var subject: String

    /// The placeholder in the account's email column: not an address (no `@`), so sign-up can
    /// never claim it, and unique per identity.
    var accountEmail: String { provider + ":" + subject }

    /// The same statement for SQLite and PostgreSQL (idempotent).
    static let table = """
        CREATE TABLE IF NOT EXISTS provider_identity (
            provider TEXT NOT NULL,
            subject TEXT NOT NULL,
            account_key TEXT NOT NULL REFERENCES account(key) ON DELETE CASCADE,
            PRIMARY KEY (provider, subject)
        )
        """
}
