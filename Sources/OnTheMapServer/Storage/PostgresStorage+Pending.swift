/// PLACEHOLDER until the PostgreSQL storage implements the throttle and account-administration
/// requirements that branch `ops` added to `ServerStorage` (see SQLiteStorage+Operations.swift for
/// the behaviour and the schema). Each one refuses loudly instead of pretending: on PostgreSQL a
/// login answers 500 and `user list | reset-password | delete` fail until this file is replaced.
extension PostgresStorage {
    /// Thrown by every placeholder below.
    struct NotImplemented: Error, CustomStringConvertible {
        var requirement: String
        var description: String { "PostgresStorage.\(requirement) is not implemented yet." }
    }

    func loginBlockedUntil(subjects: [String], now: Double) async throws -> Double? {
        throw NotImplemented(requirement: "loginBlockedUntil")
    }

    func recordLoginFailure(subjects: [ThrottleSubject], now: Double, window: Double, block: Double) async throws {
        throw NotImplemented(requirement: "recordLoginFailure")
    }

    func clearLoginFailures(subject: String) async throws {
        throw NotImplemented(requirement: "clearLoginFailures")
    }

    func accounts() async throws -> [Account] {
        throw NotImplemented(requirement: "accounts")
    }

    func updatePassword(key: String, passwordHash: String) async throws -> Bool {
        throw NotImplemented(requirement: "updatePassword")
    }

    func deleteAccount(key: String) async throws -> Bool {
        throw NotImplemented(requirement: "deleteAccount")
    }
}
