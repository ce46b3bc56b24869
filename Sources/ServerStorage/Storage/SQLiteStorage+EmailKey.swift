import Foundation
import GRDB

/// The canonical e-mail key on SQLite (`EmailKey`): a step of its own after `migrate`, run at
/// every open (it finds nothing to do once every account has its key, but the collisions it
/// reports are reported again until the operator resolves them).
extension SQLiteStorage {
    public func migrateEmailKeys() async throws -> [EmailKeyCollision] {
        try await pool.write { db in try Self.migrateEmailKeys(db) }
    }

    /// The step itself, in `db`'s write transaction (the live database's, or a backup's before
    /// it is restored).
    static func migrateEmailKeys(_ db: Database) throws -> [EmailKeyCollision] {
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(account)").map { $0["name"] as String }
        if !columns.contains("email_key") {
            try db.execute(sql: "ALTER TABLE account ADD COLUMN email_key TEXT")
        }
        try db.execute(sql: "CREATE UNIQUE INDEX IF NOT EXISTS account_email_key ON account (email_key)")
        var collisions: [EmailKeyCollision] = []
        let pending = try Row.fetchAll(
            db, sql: "SELECT key, email FROM account WHERE email_key IS NULL ORDER BY created_at, key")
        for row in pending {
            let key: String = row["key"]
            let email: String = row["email"]
            let canonical = EmailKey.canonical(email)
            if let holder = try Row.fetchOne(db, sql: "SELECT key, email FROM account WHERE email_key = ?", arguments: [canonical]) {
                collisions.append(EmailKeyCollision(key: key, email: email, holderKey: holder["key"], holderEmail: holder["email"]))
            } else {
                try db.execute(sql: "UPDATE account SET email_key = ? WHERE key = ?", arguments: [canonical, key])
            }
        }
        return collisions
    }
}
