import ArgumentParser
import Foundation
import OnTheMapServer

extension OnTheMapServerCommand {
    /// `invite create | list | revoke`: sign-up codes for `serve --signup invite`.
    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Manage sign-up invite codes (for serve --signup invite).", subcommands: [Create.self, List.self, Revoke.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Create an invite and print its code (shown only now).")

            @Option(help: "How many sign-ups the code allows.") var uses = 1
            @Option(help: ArgumentHelp("When it stops working: a duration (30m, 12h, 7d) or a date (2026-12-31).", valueName: "duration-or-date"))
            var expires: String?
            @OptionGroup var database: DatabaseOptions

            func validate() throws {
                guard (1...100_000).contains(uses) else { throw ValidationError("--uses must be between 1 and 100000.") }
                if let expires, Self.expiry(expires) == nil {
                    throw ValidationError("--expires takes a duration like 30m, 12h or 7d, or a date like 2026-12-31.")
                }
            }

            func run() async throws {
                try await database.withDatabase { db in
                    let (code, id) = try await db.createInvite(uses: uses, expiresAt: expires.flatMap { Self.expiry($0) })
                    await db.close()
                    print(code)
                    FileHandle.standardError.write(Data("Invite \(id): \(uses) sign-up\(uses == 1 ? "" : "s").\n".utf8))
                }
            }

            /// `30m`, `12h`, `7d` from now, or a date (`2026-12-31`, or ISO 8601 with a time).
            static func expiry(_ text: String, now: Date = Date()) -> Date? {
                let units: [Character: Double] = ["m": 60, "h": 3600, "d": 86_400]
                if let unit = text.last.flatMap({ units[$0] }), let count = Double(text.dropLast()), count > 0, count <= 36_500 {
                    return now.addingTimeInterval(count * unit)
                }
                if let date = try? Date(text, strategy: .iso8601) { return date }
                return try? Date(text + "T23:59:59Z", strategy: .iso8601)
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the invites (id, uses left, expiry), newest first.")

            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                try await database.withDatabase { db in
                    let invites = try await db.invites()
                    await db.close()
                    for invite in invites {
                        let expiry = invite.expiresAt.map { $0.formatted(.iso8601) } ?? "never"
                        print([invite.id, "\(invite.usesLeft) left", "expires \(expiry)"].joined(separator: "\t"))
                    }
                    print("\(invites.count) invite\(invites.count == 1 ? "" : "s").")
                }
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Delete an invite, named by its id or its code.")

            @Argument(help: "The invite's id (from invite list) or its code.") var invite: String
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                try await database.withDatabase { db in
                    let deleted = try await db.revokeInvite(invite)
                    await db.close()
                    guard deleted > 0 else { throw ValidationError("No such invite.") }
                    print("Revoked.")
                }
            }
        }
    }
}
