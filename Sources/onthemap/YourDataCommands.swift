import APIClient
import ArgumentParser
import Foundation
import OnTheMapModels
import SafeText
import UserFiles

#if canImport(Glibc)
    import Glibc
#endif

/// `onthemap delete`: deletes your own row — the only one, one by objectId, or all with `--all`.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete your location from the map (with several: one by objectId, or --all).",
        discussion: """
            With one location, deletes it; with several, give the objectId of the one to delete \
            (`onthemap list --json` or this command shows them) or --all. Asks first on a terminal; \
            without one, pass --yes. Exit status: 0 deleted, 1 failure (no location of yours, or which \
            one not said), 3 not logged in or the session expired, 4 refused (not confirmed, or not yours).
            """)

    @OptionGroup var serverOptions: ServerOptions
    @Argument(help: "The objectId of the location to delete, when you have several.") var objectId: String?
    @Flag(help: "Delete every location of yours.") var all = false
    @Flag(name: .shortAndLong, help: "Delete without asking.") var yes = false

    func validate() throws {
        if all, objectId != nil { throw ValidationError("Give an objectId or --all, not both.") }
    }

    func run() async throws {
        let stored = try serverOptions.storedSession()
        let connection = try await serverOptions.connect(resuming: stored)
        let server = serverOptions.serverLabel
        do {
            let mine = try await Self.call(server) { () async throws(APIError) in
                try await connection.client.locations(ofUser: stored.accountKey)
            }
            let chosen = try choose(from: mine, server: server)
            if !yes {
                let what =
                    chosen.count == 1 ? "your location \(Self.describe(chosen[0]))" : "your \(chosen.count) locations"
                try YourData.confirm("Delete \(what) from \(server)?", refusal: "not deleted")
            }
            for row in chosen {
                try await Self.call(server) { () async throws(APIError) in
                    try await connection.client.deleteLocation(objectId: row.objectId)
                }
                print("Deleted your location \(Self.describe(row)).")
            }
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    }

    /// The rows to delete, or a failure that says which to name.
    private func choose(from mine: [StudentInformation], server: String) throws -> [StudentInformation] {
        guard !mine.isEmpty else { throw ExitFailure(.failure, "you have no location on \(server) to delete.") }
        if all { return mine }
        if let objectId {
            guard let row = mine.first(where: { $0.objectId == objectId }) else {
                throw ExitFailure(
                    .failure, "none of your locations has objectId \(objectId); yours: \(Self.list(mine)).")
            }
            return [row]
        }
        guard mine.count == 1 else {
            throw ExitFailure(
                .failure,
                "you have \(mine.count) locations; say which: `onthemap delete OBJECTID` or `--all`. "
                    + "Yours: \(Self.list(mine)).")
        }
        return mine
    }

    /// "at Lisbon, Portugal (abc123)", cleaned.
    static func describe(_ row: StudentInformation) -> String {
        let place = row.mapString.isEmpty ? String(format: "%.4f, %.4f", row.latitude, row.longitude) : row.mapString
        return "at \(SafeText.clean(place)) (\(SafeText.clean(row.objectId)))" + (row.hidden ? " [hidden]" : "")
    }

    static func list(_ rows: [StudentInformation]) -> String {
        rows.map { "\(SafeText.clean($0.objectId)) \(SafeText.clean($0.mapString))" }.joined(separator: ", ")
    }

    static func call<T>(_ server: String, _ body: () async throws(APIError) -> T) async throws -> T {
        do throws(APIError) {
            return try await body()
        } catch {
            throw ExitFailure.from(error, server: server)
        }
    }
}

/// `onthemap account`: your account on the server.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Your account on the server (delete it).",
        subcommands: [AccountDeleteCommand.self])
}

/// `onthemap account delete`: deletes the account, its locations and its sessions, after the
/// password is typed again; forgets the stored session.
struct AccountDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete your account with all its locations and sessions (asks for the password again).",
        discussion: """
            The password is read again from the terminal without echo, or from stdin with \
            --password-stdin. An account made by a provider login (Facebook, a device login) has no \
            password: it is asked to confirm instead (--yes on a script). Says what was removed and \
            forgets the stored session. Exit status: 0 deleted, 1 failure, 3 not logged in or the \
            session expired, 4 refused (wrong password, or not confirmed).
            """)

    @OptionGroup var serverOptions: ServerOptions
    @Flag(help: "Read the password from the first line of stdin.") var passwordStdin = false
    @Flag(name: .shortAndLong, help: "For an account without a password: delete without asking.") var yes = false

    func run() async throws {
        let stored = try serverOptions.storedSession()
        let server = serverOptions.serverLabel
        let password: String?
        if passwordStdin {
            password = try PasswordReader.fromStandardInput()
        } else if stored.provider == "password" {
            Diagnostics.note("Deleting your account on \(server) removes all your locations and sessions.")
            password = try PasswordReader.fromTerminal(prompt: "Password (again, to delete the account): ")
        } else {
            password = nil
            if !yes {
                try YourData.confirm("Delete your account on \(server) and all its locations?", refusal: "not deleted")
            }
        }
        let connection = try await serverOptions.connect(resuming: stored)
        let outcome: Result<AccountDeletion, APIError>
        do throws(APIError) {
            outcome = .success(try await connection.client.deleteAccount(key: stored.accountKey, password: password))
        } catch {
            outcome = .failure(error)
        }
        await connection.close()
        let deletion = try outcome.mapError { error -> ExitFailure in
            if case .invalidCredentials = error {
                return ExitFailure(.refused, "wrong password: the account was not deleted.")
            }
            return ExitFailure.from(error, server: server)
        }.get()
        StoredSession.remove()
        let locations = deletion.deleted.locations
        let sessions = deletion.deleted.sessions
        print(
            "Deleted your account on \(server): \(locations) location\(locations == 1 ? "" : "s") and "
                + "\(sessions) session\(sessions == 1 ? "" : "s") removed. The stored session is forgotten.")
    }
}

/// `onthemap export`: your account and every row of it, as JSON.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write your account and all your locations as JSON (stdout, or --output FILE).",
        discussion: """
            Writes the server's answer — {"account":{…},"locations":[…]}, hidden locations marked — \
            with sorted keys, control characters escaped. --output writes a new file with mode 0600 \
            (an existing one, or a symlink, is replaced only with --force, never written through). \
            Exit status: 0 written, 1 failure, 3 not logged in or the session expired.
            """)

    @OptionGroup var serverOptions: ServerOptions
    @Option(name: .shortAndLong, help: "Write to this file instead of stdout.") var output: String?
    @Flag(help: "Replace --output when it exists.") var force = false

    func run() async throws {
        let stored = try serverOptions.storedSession()
        let connection = try await serverOptions.connect(resuming: stored)
        let outcome: Result<AccountExport, APIError>
        do throws(APIError) {
            outcome = .success(try await connection.client.exportAccount(key: stored.accountKey))
        } catch {
            outcome = .failure(error)
        }
        await connection.close()
        let export = try outcome.mapError { ExitFailure.from($0, server: serverOptions.serverLabel) }.get()
        let text = try Self.json(export)
        guard let output else {
            print(text, terminator: "")
            return
        }
        do {
            try PrivateFile.write(Data(text.utf8), to: output, replacing: force)
        } catch {
            throw ExitFailure(.failure, error.description)
        }
        let count = export.locations.count
        Diagnostics.note("Wrote your account and \(count) location\(count == 1 ? "" : "s") to \(output).")
    }

    /// Pretty, sorted, with every control and bidi character escaped (safe to cat to a terminal).
    static func json(_ export: AccountExport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return SafeText.escapingControls(inJSON: String(decoding: try encoder.encode(export), as: UTF8.self)) + "\n"
    }
}

/// What the commands about your data share.
enum YourData {
    /// Asks on the terminal; without one (a script) refuses, so nothing is deleted unseen.
    static func confirm(_ question: String, refusal: String) throws {
        guard isatty(STDIN_FILENO) == 1 else {
            throw ExitFailure(.refused, "\(refusal): no terminal to ask on; pass --yes to go ahead without asking.")
        }
        Diagnostics.note("\(question) [y/N] ", newline: false)
        let answer = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else { throw ExitFailure(.refused, "\(refusal).") }
    }
}
