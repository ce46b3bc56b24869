import APIClient

/// A failure with its own documented exit status (Docs/TerminalApp.md, "Exit codes"):
/// `Diagnostics.exit` prints `onthemap: message` (cleaned) and exits with `status`.
struct ExitFailure: Error, CustomStringConvertible {
    /// The statuses scripts can tell apart. 0 is success and 64 a usage error (argument-parser's).
    enum Status: Int32 {
        /// Anything else: the server cannot be reached, nothing found, a file cannot be written.
        case failure = 1
        /// No stored session for this server, or it expired, or the server no longer accepts it.
        case notLoggedIn = 3
        /// Refused: wrong email or password, a link that is not http(s), a post not confirmed.
        case refused = 4
    }

    var status: Status
    var description: String

    init(_ status: Status, _ description: String) {
        self.status = status
        self.description = description
    }

    static func notLoggedIn(server: String) -> ExitFailure {
        ExitFailure(.notLoggedIn, "not logged in to \(server): run `onthemap login --email YOU`.")
    }

    /// An API error as the exit it deserves: a session the server rejects (401/403) is status 3,
    /// wrong credentials 4, the rest 1.
    static func from(_ error: APIError, server: String) -> ExitFailure {
        switch error {
        case .refused(let status, _) where status == 401 || status == 403:
            ExitFailure(
                .notLoggedIn, "the session for \(server) is no longer valid (\(error.userMessage)): run `onthemap login` again.")
        case .notLoggedIn: notLoggedIn(server: server)
        case .invalidCredentials: ExitFailure(.refused, error.userMessage)
        // Fair share or not yours (403 code 119): the server's sentence, refused.
        case .notAllowed: ExitFailure(.refused, error.userMessage)
        default: ExitFailure(.failure, error.userMessage)
        }
    }
}
