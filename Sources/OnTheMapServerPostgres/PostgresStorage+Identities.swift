import Foundation
import ServerStorage
import PostgresNIO

/// Provider identities on PostgreSQL.
extension PostgresStorage {
    package func accountKey(for identity: ProviderIdentity) async throws -> String? {
        let rows = try await client.query(
            "SELECT account_key FROM provider_identity WHERE provider = \(identity.provider) AND subject = \(identity.subject)",
            logger: logger)
        for try await key in rows.decode(String.self) { return key }
        return nil
    }

    package func insert(_ account: Account, linking identity: ProviderIdentity) async throws {
        let logger = self.logger
        do {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query(
                    """
                    INSERT INTO account (key, email, email_key, password_hash, first_name, last_name, created_at)
                    VALUES (\(account.key), \(account.email), \(EmailKey.canonical(account.email)), \(account.passwordHash), \(account.firstName), \(account.lastName), \(account.createdAt))
                    """, logger: logger)
                try await connection.query(
                    """
                    INSERT INTO provider_identity (provider, subject, account_key)
                    VALUES (\(identity.provider), \(identity.subject), \(account.key))
                    """, logger: logger)
            }
        } catch let error as PostgresTransactionError {
            if let failure = error.closureError as? PSQLError,
                failure.serverInfo?[.sqlState] == PostgresError.Code.uniqueViolation.raw
            {
                throw StorageError.duplicateIdentity
            }
            throw error
        }
    }
}
