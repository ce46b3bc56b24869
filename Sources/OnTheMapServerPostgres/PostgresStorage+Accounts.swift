import Foundation
import Logging
import ServerStorage
import PostgresNIO

/// Accounts and sessions on PostgreSQL (administration: PostgresStorage+Operations.swift).
extension PostgresStorage {
    // MARK: Accounts and sessions

    func insert(_ account: Account) async throws {
        do {
            try await client.query(
                """
                INSERT INTO account (key, email, email_key, password_hash, first_name, last_name, created_at)
                VALUES (\(account.key), \(account.email), \(EmailKey.canonical(account.email)), \(account.passwordHash), \(account.firstName), \(account.lastName), \(account.createdAt))
                """, logger: logger)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == PostgresError.Code.uniqueViolation.raw {
            throw StorageError.duplicateEmail
        }
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
        let rows = try await client.query(
            PostgresQuery(
                unsafeSQL: "SELECT \(Self.accountColumns) FROM account WHERE \(condition)",
                binds: try Self.bindings(values.map { .text($0) })), logger: logger)
        for try await row in rows { return try Self.account(from: row) }
        return nil
    }

    static let accountColumns = "key, email, password_hash, first_name, last_name, created_at, role, suspended_at"

    static func account(from row: PostgresRow) throws -> Account {
        let (key, email, hash, first, last, created, role, suspended) =
            try row.decode((String, String, String, String, String, String, String, String?).self)
        return Account(
            key: key, email: email, passwordHash: hash, firstName: first, lastName: last, createdAt: created,
            role: AccountRole(rawValue: role) ?? .student, suspendedAt: suspended)
    }

    func insert(_ session: StoredSession) async throws {
        try await client.query("DELETE FROM session WHERE expires_at < \(Date().timeIntervalSince1970)", logger: logger)
        try await client.query(
            """
            INSERT INTO session (id, account_key, xsrf_token, sealed_id, expires_at)
            VALUES (\(session.idHash), \(session.accountKey), \(session.xsrfHash), \(session.sealedId), \(session.expiresAt))
            """, logger: logger)
    }

    func session(idHash: String, now: Double) async throws -> StoredSession? {
        try await session(where: "id = $1", idHash, now: now)
    }

    func session(xsrfHash: String, now: Double) async throws -> StoredSession? {
        try await session(where: "xsrf_token = $1", xsrfHash, now: now)
    }

    private func session(where condition: String, _ value: String, now: Double) async throws -> StoredSession? {
        var bindings = PostgresBindings()
        bindings.append(value)
        bindings.append(now)
        let rows = try await client.query(
            PostgresQuery(
                unsafeSQL: "SELECT id, account_key, xsrf_token, sealed_id, expires_at FROM session WHERE \(condition) AND expires_at > $2",
                binds: bindings), logger: logger)
        for try await (id, key, token, sealed, expires) in rows.decode((String, String, String, String, Double).self) {
            return StoredSession(idHash: id, accountKey: key, xsrfHash: token, sealedId: sealed, expiresAt: expires)
        }
        return nil
    }

    func deleteSession(idHash: String) async throws {
        try await client.query("DELETE FROM session WHERE id = \(idHash)", logger: logger)
    }
}
