import ArgumentParser
import Foundation
import OnTheMapServer
import SafeText
import ServerAdmin

extension OnTheMapServerCommand.User {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the accounts (key, email, name, created, role, suspended), oldest first.")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await database.withDatabase { db in
                let users = try await db.users()
                for user in users {
                    // Names and emails came from sign-ups: nothing in them may act on the operator's terminal.
                    let fields = [
                        user.key, user.email, "\(user.firstName) \(user.lastName)", user.createdAt, user.role,
                        user.suspended ? "suspended" : "",
                    ]
                    print(fields.map(SafeText.clean).joined(separator: "\t"))
                }
                print("\(users.count) account\(users.count == 1 ? "" : "s").")
            }
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set an account's password; its sessions end and its failed logins are forgotten.")

        @Argument(help: "The account's key or email.") var account: String
        @OptionGroup var password: PasswordOptions
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let newPassword = try password.read(prompt: "New password: ")
            try await database.withDatabase { db in
                do {
                    let key = try await db.resetPassword(keyOrEmail: account, password: newPassword)
                    print("Password of \(key) changed; its sessions ended.")
                } catch let error as ServerDatabase.AccountError {
                    throw ValidationError(error.description)
                }
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an account, its sessions and its locations.")

        @Argument(help: "The account's key or email.") var account: String
        /// Accepted for the scripts written when the locations stayed by default; they go always now.
        @Flag(help: .hidden) var withLocations = false
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await database.withDatabase { db in
                do {
                    let (key, deleted) = try await db.deleteUser(keyOrEmail: account)
                    print("Deleted account \(key) and \(deleted) location\(deleted == 1 ? "" : "s").")
                } catch let error as ServerDatabase.AccountError {
                    throw ValidationError(error.description)
                }
            }
        }
    }
}
