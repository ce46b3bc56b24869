import ClassRules
import DemoClass
import Foundation
import Logging
import OnTheMapModels
import ServerConfig
import ServerSessions
import ServerStorage

/// Administration of a server's database from the command line: accounts and the demo class.
public struct ServerDatabase: Sendable {
    /// Reads; every write goes through `writes`, the one write path.
    let storage: any ServerStorage
    let writes: ClassWrites
    let configuration: ServerConfiguration

    /// Opens (and migrates) the database that `configuration` names.
    public static func open(_ configuration: ServerConfiguration) async throws -> ServerDatabase {
        let (storage, writes) = try await ClassWrites.open(
            configuration.database, queryTimeout: configuration.queryTimeout, postgres: configuration.postgres,
            logger: Logger(label: "onthemap-server.storage"), limits: configuration.fairShare)
        return ServerDatabase(storage: storage, writes: writes, configuration: configuration)
    }

    private var sessions: SessionAuthority { SessionAuthority(storage: storage, writes: writes, configuration: configuration) }

    /// The rule's permit for an act of the operator at the command line, whom every command here
    /// is (Docs/Access.md: the operator may do every act, audited as `operator`).
    func permit(_ act: WriteAct) throws -> WritePermit { try Access.permit(act, by: Caller.operatorAtCommandLine()) }

    /// Releases the database connections.
    public func close() async { await storage.close() }

    /// Why an account cannot be created.
    public enum AccountError: Error, CustomStringConvertible {
        case invalid(String)
        case duplicateEmail(String)

        public var description: String {
            switch self {
            case .invalid(let message): return message
            case .duplicateEmail(let email): return "An account with the email \(email) already exists."
            }
        }
    }

    /// Creates an account (a `student`, or `role`) and returns its key.
    public func addUser(
        email: String, password: String, firstName: String, lastName: String, role: String = "student"
    ) async throws -> String {
        guard let role = AccountRole(rawValue: role) else { throw AccountError.invalid("The role is student or moderator, not \(role).") }
        if let problem = AccountRules.emailProblem(email) { throw AccountError.invalid(problem) }
        if let problem = AccountRules.passwordProblem(password) { throw AccountError.invalid(problem) }
        guard !firstName.isEmpty, !lastName.isEmpty else { throw AccountError.invalid("Enter a first and a last name.") }
        for (name, what) in [(firstName, "first name"), (lastName, "last name")] {
            if let problem = AccountRules.nameProblem(name, what, maxBytes: configuration.maxStringBytes) {
                throw AccountError.invalid(problem)
            }
        }
        do {
            let key = try await sessions.createAccount(
                email: email, password: password, firstName: firstName, lastName: lastName, try permit(.createAccount)
            ).key
            if role != .student { try await writes.setRole(key: key, role: role, try permit(.setRole(key: key))) }
            return key
        } catch StorageError.duplicateEmail {
            throw AccountError.duplicateEmail(email)
        }
    }

    /// What `seedDemo` did.
    public struct SeedReport: Sendable {
        public var locationsAdded: Int
        public var demoAccountCreated: Bool
        public var demoEmail: String
        public var demoPassword: String
    }

    /// Adds the demo class (when the table is empty, unless `force`) and the demo account (when missing).
    public func seedDemo(force: Bool = false, now: Date = Date()) async throws -> SeedReport {
        var added = 0
        let existing = try await storage.locationCount()
        if force || existing == 0 {
            let rows = DemoRows.locations(now: now)
            try await writes.importLocations(rows, try permit(.importLocations))
            added = rows.count
        }
        var created = false
        if try await storage.account(email: DemoAccount.email) == nil {
            _ = try await addUser(
                email: DemoAccount.email, password: DemoAccount.password, firstName: DemoAccount.firstName,
                lastName: DemoAccount.lastName)
            created = true
        }
        return SeedReport(
            locationsAdded: added, demoAccountCreated: created, demoEmail: DemoAccount.email,
            demoPassword: DemoAccount.password)
    }

    /// Adds `count` synthetic rows (for benchmarks).
    public func seedSynthetic(count: Int) async throws {
        try await writes.fillSynthetic(count: count, try permit(.fillSynthetic))
    }

    /// How many StudentLocation rows there are.
    public func locationCount() async throws -> Int { try await storage.locationCount() }

    /// SQLite's plan for the app's main query, `limit=100&order=-updatedAt` (for Docs and tests).
    public func mainQueryPlan() async throws -> [String] {
        try await storage.queryPlan(ListQuery(order: [.init(field: .updatedAt, descending: true)], limit: 100))
    }
}
