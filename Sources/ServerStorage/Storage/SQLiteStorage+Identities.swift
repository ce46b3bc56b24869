import Foundation
import GRDB

/// Provider identities on SQLite.
extension SQLiteStorage {
    public func accountKey(for identity: ProviderIdentity) async throws -> String? {
        try await pool.read { db in
            try String.fetchOne(
                db, sql: "SELECT account_key FROM provider_identity WHERE provider = ? AND subject = ?",
                arguments: [identity.provider, identity.subject])
        }
    }

    public func insert(_ account: Account, linking identity: ProviderIdentity) async throws {
        do {
            try await pool.write { db in
                try db.execute(
                    sql: "INSERT INTO account (key, email, email_key, password_hash, first_name, last_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [account.key, account.email, EmailKey.canonical(account.email), account.passwordHash, account.firstName, account.lastName, account.createdAt])
                try db.execute(
                    sql: "INSERT INTO provider_identity (provider, subject, account_key) VALUES (?, ?, ?)",
                    arguments: [identity.provider, identity.subject, account.key])
            }
        } catch let error as DatabaseError
            where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
        {
            // The placeholder email or the identity's key: either way the identity is taken.
            throw StorageError.duplicateIdentity
        }
    }
}
