import Foundation
import Logging
import ServerStorage

/// Accounts and sessions on PostgreSQL (administration: PostgresStorage+Operations.swift).
extension PostgresStorage {
    // MARK: Accounts and sessions

    func insert(_ account: Account) async throws {
        do {
            try await pool.execute(Self.insertion(account))
        } catch let error as PGError where error.sqlState == PGError.uniqueViolation {
            throw StorageError.duplicateEmail
        }
    }

    /// The INSERT of an account, its canonical e-mail key computed here as on SQLite.
    static func insertion(_ account: Account) -> PGQuery {
        """
        INSERT INTO account (key, email, email_key, password_hash, first_name, last_name, created_at)
        VALUES (\(account.key), \(account.email), \(EmailKey.canonical(account.email)), \(account.passwordHash), \(account.firstName), \(account.lastName), \(account.createdAt))
        """
    }

    /// By the canonical form (`EmailKey`, computed here as on SQLite); an account the e-mail
    /// migration found colliding has no key and is found by exactly its own address, first.
    func account(email: String) async throws -> Account? {
        try await account(
            where: "email_key = $1 OR (email_key IS NULL AND email = $2) ORDER BY (email_key IS NULL) DESC LIMIT 1",
            [EmailKey.canonical(email), email])
    }

    func account(key: String) async throws -> Account? {
        try await account(where: "key = $1", [key])
    }

    private func account(where condition: String, _ values: [String]) async throws -> Account? {
        try await pool.execute(
            PGQuery(unsafeSQL: "SELECT \(Self.accountColumns) FROM account WHERE \(condition)", binds: values.map { .text($0) })
        ).first.map(Self.account(from:))
    }

    static let accountColumns = "key, email, password_hash, first_name, last_name, created_at, role, suspended_at"

    static func account(from row: PGRow) throws -> Account {
        Account(
            key: try row.text(0), email: try row.text(1), passwordHash: try row.text(2), firstName: try row.text(3),
            lastName: try row.text(4), createdAt: try row.text(5), role: AccountRole(rawValue: try row.text(6)) ?? .student,
            suspendedAt: try row.optionalText(7))
    }

    func insert(_ session: StoredSession) async throws {
        try await pool.execute("DELETE FROM session WHERE expires_at < \(Date().timeIntervalSince1970)")
        try await pool.execute(
            """
            INSERT INTO session (id, account_key, xsrf_token, sealed_id, expires_at)
            VALUES (\(session.idHash), \(session.accountKey), \(session.xsrfHash), \(session.sealedId), \(session.expiresAt))
            """)
    }

    func session(idHash: String, now: Double) async throws -> StoredSession? {
        try await session(where: "id = $1", idHash, now: now)
    }

    func session(xsrfHash: String, now: Double) async throws -> StoredSession? {
        try await session(where: "xsrf_token = $1", xsrfHash, now: now)
    }

    private func session(where condition: String, _ value: String, now: Double) async throws -> StoredSession? {
        let rows = try await pool.execute(
            PGQuery(
                unsafeSQL: "SELECT id, account_key, xsrf_token, sealed_id, expires_at FROM session WHERE \(condition) AND expires_at > $2",
                binds: [.text(value), .real(now)]))
        return try rows.first.map { row in
            StoredSession(
                idHash: try row.text(0), accountKey: try row.text(1), xsrfHash: try row.text(2), sealedId: try row.text(3),
                expiresAt: try row.double(4))
        }
    }

    func deleteSession(idHash: String) async throws {
        try await pool.execute("DELETE FROM session WHERE id = \(idHash)")
    }
}
