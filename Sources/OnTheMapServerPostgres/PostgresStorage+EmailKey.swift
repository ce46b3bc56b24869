import Foundation
import Logging
import ServerStorage

/// The canonical e-mail key on PostgreSQL (`EmailKey`, computed in Swift so that both stores
/// agree: PostgreSQL has no Unicode case folding of its own): a step of its own after `migrate`,
/// one instance at a time, run at every open (the collisions it reports are reported again until
/// the operator resolves them).
extension PostgresStorage {
    func migrateEmailKeys() async throws -> [EmailKeyCollision] {
        try await pool.withConnection { connection in
            try await connection.execute("SELECT pg_advisory_lock(7345002)")
            do {
                let collisions = try await Self.fillEmailKeys(connection)
                try await connection.execute("SELECT pg_advisory_unlock(7345002)")
                return collisions
            } catch {
                _ = try? await connection.execute("SELECT pg_advisory_unlock(7345002)")
                throw error
            }
        }
    }

    private static func fillEmailKeys(_ connection: PGSession) async throws -> [EmailKeyCollision] {
        try await connection.execute("ALTER TABLE account ADD COLUMN IF NOT EXISTS email_key TEXT")
        try await connection.execute("CREATE UNIQUE INDEX IF NOT EXISTS account_email_key ON account (email_key)")
        let pending = try await connection.execute("SELECT key, email FROM account WHERE email_key IS NULL ORDER BY created_at, key")
            .rows.map { (try $0.text(0), try $0.text(1)) }
        var collisions: [EmailKeyCollision] = []
        for (key, email) in pending {
            let canonical = EmailKey.canonical(email)
            if let holder = try await connection.execute("SELECT key, email FROM account WHERE email_key = \(canonical)").first {
                collisions.append(EmailKeyCollision(key: key, email: email, holderKey: try holder.text(0), holderEmail: try holder.text(1)))
            } else {
                try await connection.execute("UPDATE account SET email_key = \(canonical) WHERE key = \(key)")
            }
        }
        return collisions
    }
}
