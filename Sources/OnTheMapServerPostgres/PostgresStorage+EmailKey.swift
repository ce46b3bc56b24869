import Foundation
import Logging
import ServerStorage
import PostgresNIO

/// The canonical e-mail key on PostgreSQL (`EmailKey`, computed in Swift so that both stores
/// agree: PostgreSQL has no Unicode case folding of its own): a step of its own after `migrate`,
/// one instance at a time, run at every open (the collisions it reports are reported again until
/// the operator resolves them).
extension PostgresStorage {
    func migrateEmailKeys() async throws -> [EmailKeyCollision] {
        let logger = self.logger
        return try await client.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(7345002)", logger: logger)
            do {
                let collisions = try await Self.fillEmailKeys(connection, logger: logger)
                try await connection.query("SELECT pg_advisory_unlock(7345002)", logger: logger)
                return collisions
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(7345002)", logger: logger)
                throw error
            }
        }
    }

    private static func fillEmailKeys(_ connection: PostgresConnection, logger: Logger) async throws -> [EmailKeyCollision] {
        try await connection.query("ALTER TABLE account ADD COLUMN IF NOT EXISTS email_key TEXT", logger: logger)
        try await connection.query("CREATE UNIQUE INDEX IF NOT EXISTS account_email_key ON account (email_key)", logger: logger)
        var pending: [(String, String)] = []
        let rows = try await connection.query(
            "SELECT key, email FROM account WHERE email_key IS NULL ORDER BY created_at, key", logger: logger)
        for try await (key, email) in rows.decode((String, String).self) { pending.append((key, email)) }
        var collisions: [EmailKeyCollision] = []
        for (key, email) in pending {
            let canonical = EmailKey.canonical(email)
            var holder: (String, String)?
            let found = try await connection.query("SELECT key, email FROM account WHERE email_key = \(canonical)", logger: logger)
            for try await row in found.decode((String, String).self) { holder = row }
            if let holder {
                collisions.append(EmailKeyCollision(key: key, email: email, holderKey: holder.0, holderEmail: holder.1))
            } else {
                try await connection.query("UPDATE account SET email_key = \(canonical) WHERE key = \(key)", logger: logger)
            }
        }
        return collisions
    }
}
