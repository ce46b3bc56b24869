import Foundation
import ServerStorage

/// Provider identities on PostgreSQL.
extension PostgresStorage {
    package func accountKey(for identity: ProviderIdentity) async throws -> String? {
        try await pool.execute(
            "SELECT account_key FROM provider_identity WHERE provider = \(identity.provider) AND subject = \(identity.subject)"
        ).first?.text(0)
    }

    package func insert(_ account: Account, linking identity: ProviderIdentity) async throws {
        do {
            try await pool.withTransaction { connection in
                try await connection.execute(Self.insertion(account))
                try await connection.execute(
                    """
                    INSERT INTO provider_identity (provider, subject, account_key)
                    VALUES (\(identity.provider), \(identity.subject), \(account.key))
                    """)
            }
        } catch let error as PGError where error.sqlState == PGError.uniqueViolation {
            throw StorageError.duplicateIdentity
        }
    }
}
