import APIClient
import ArgumentParser
import Foundation

/// `onthemap logout`: deletes the stored session on the server, then the state file.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "End the stored session (on the server too) and forget it.")

    @OptionGroup var serverOptions: ServerOptions

    func run() async throws {
        guard let stored = StoredSession.load(), stored.server == serverOptions.sessionServerKey else {
            print("Not logged in to \(serverOptions.serverLabel).")
            return
        }
        // The file goes whatever the server says: the user asked to leave.
        defer { StoredSession.remove() }
        let connection = try await serverOptions.connect(resuming: stored)
        do throws(APIError) {
            try await connection.client.logOut()
            print("Logged out of \(serverOptions.serverLabel).")
        } catch {
            Diagnostics.warn("forgot the session here; the server said: \(error.userMessage)")
        }
        await connection.close()
    }
}
