import ArgumentParser
import Foundation
import OnTheMapServer
import SafeText
import ServerAdmin

/// `user role|suspend|unsuspend`, `location list|hide|unhide|delete` and `audit`: moderation from
/// the command line (Docs/Access.md, Docs/Operations.md). Every act goes to the audit log as
/// `operator`; every name, place and link printed is cleaned (`SafeText`).
extension OnTheMapServerCommand.User {
    struct Role: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set an account's role: student or moderator.")

        @Argument(help: "The account's key or email.") var account: String
        @Argument(help: "student or moderator.") var role: String
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard ServerDatabase.roles.contains(role) else {
                throw ValidationError("The role is student or moderator.")
            }
        }

        func run() async throws {
            try await database.withDatabase { db in
                do {
                    let key = try await db.setRole(keyOrEmail: account, role: role)
                    print("\(SafeText.clean(key)) is now a \(role).")
                } catch let error as ServerDatabase.AccountError {
                    throw ValidationError(SafeText.clean(error.description))
                }
            }
        }
    }

    struct Suspend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Suspend an account: its sessions end, it cannot log in, its locations are hidden.")

        @Argument(help: "The account's key or email.") var account: String
        @Option(help: "Why (kept in the audit log).") var reason: String?
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await database.withDatabase { db in
                do {
                    let key = try await db.setSuspended(keyOrEmail: account, suspended: true, reason: reason)
                    print("Suspended \(SafeText.clean(key)): its sessions ended and its locations are hidden.")
                } catch let error as ServerDatabase.AccountError {
                    throw ValidationError(SafeText.clean(error.description))
                }
            }
        }
    }

    struct Unsuspend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Let a suspended account log in again; the locations its suspension hid are shown again.")

        @Argument(help: "The account's key or email.") var account: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await database.withDatabase { db in
                do {
                    let key = try await db.setSuspended(keyOrEmail: account, suspended: false)
                    print("\(SafeText.clean(key)) may log in again.")
                } catch let error as ServerDatabase.AccountError {
                    throw ValidationError(SafeText.clean(error.description))
                }
            }
        }
    }
}

extension OnTheMapServerCommand {
    /// `location list | hide | unhide | delete`.
    struct Location: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Moderate the locations on the map.",
            subcommands: [List.self, Hide.self, Unhide.self, Delete.self])

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List locations (objectId, account, name, place, link, updated, hidden reason), newest first."
            )

            @Option(help: "Only this account's (key or email).") var account: String?
            @Flag(help: "Only hidden locations.") var hidden = false
            @Option(help: "At most this many.") var limit = 1000
            @OptionGroup var database: DatabaseOptions

            func validate() throws {
                guard (1...100_000).contains(limit) else { throw ValidationError("--limit takes 1 to 100000.") }
            }

            func run() async throws {
                try await database.withDatabase { db in
                    do {
                        let rows = try await db.locations(account: account, hiddenOnly: hidden, limit: limit)
                        for row in rows {
                            let fields = [
                                row.objectId, row.uniqueKey, row.name, row.mapString, row.mediaURL, row.updatedAt,
                                row.hiddenReason.map { "hidden: " + $0 } ?? "",
                            ]
                            print(
                                fields.map { SafeText.clean($0).replacingOccurrences(of: "\t", with: " ") }.joined(
                                    separator: "\t"))
                        }
                        print("\(rows.count) location\(rows.count == 1 ? "" : "s").")
                    } catch let error as ServerDatabase.AccountError {
                        throw ValidationError(SafeText.clean(error.description))
                    }
                }
            }
        }

        struct Hide: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Hide a location from everyone but its owner and the moderators.")

            @Argument(help: "The location's objectId.") var objectId: String
            @Option(help: "Why (shown to its owner; at most 200 bytes).") var reason: String
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                try await database.withDatabase { db in
                    do {
                        try await db.setHidden(objectId: objectId, reason: reason)
                        print("Hid \(SafeText.clean(objectId)).")
                    } catch let error as ServerDatabase.LocationError {
                        throw ValidationError(SafeText.clean(error.description))
                    }
                }
            }
        }

        struct Unhide: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Show a hidden location again.")

            @Argument(help: "The location's objectId.") var objectId: String
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                try await database.withDatabase { db in
                    do {
                        try await db.setHidden(objectId: objectId, reason: nil)
                        print("\(SafeText.clean(objectId)) is shown again.")
                    } catch let error as ServerDatabase.LocationError {
                        throw ValidationError(SafeText.clean(error.description))
                    }
                }
            }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Delete a location, whoever owns it.")

            @Argument(help: "The location's objectId.") var objectId: String
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                try await database.withDatabase { db in
                    do {
                        try await db.deleteLocation(objectId: objectId)
                        print("Deleted \(SafeText.clean(objectId)).")
                    } catch let error as ServerDatabase.LocationError {
                        throw ValidationError(SafeText.clean(error.description))
                    }
                }
            }
        }
    }

    /// `audit [--since DATE]`.
    struct Audit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the audit log (when, who, what, which row or account, why), oldest first.")

        @Option(help: ArgumentHelp("Only entries from this date (2026-11-25) or time on.", valueName: "date"))
        var since: String?
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await database.withDatabase { db in
                let entries = try await db.auditLog(since: since)
                for entry in entries {
                    let fields = [entry.at, entry.actor, entry.action, entry.target, entry.reason ?? ""]
                    print(
                        fields.map { SafeText.clean($0).replacingOccurrences(of: "\t", with: " ") }.joined(separator: "\t"))
                }
                print("\(entries.count) entr\(entries.count == 1 ? "y" : "ies").")
            }
        }
    }
}
