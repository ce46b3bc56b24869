/// The statements of the attempt throttle, written once for SQLite and PostgreSQL (both have
/// `INSERT … ON CONFLICT … DO UPDATE … RETURNING`); `p(n)` spells the n-th parameter.
package enum ThrottleSQL {
    /// One attempt against a subject, atomically; returns the new count and block.
    /// Parameters: 1 subject, 2 now, 3 limit, 4 window, 5 block.
    package static func countAttempt(_ p: (Int) -> String) -> String {
        // The count restarts when the block is over, or the window is and no block runs.
        let restart = """
            (NOT COALESCE(f.blocked_until > \(p(2)), false)
             AND (COALESCE(f.blocked_until <= \(p(2)), false) OR f.window_start < \(p(2)) - \(p(4))))
            """
        let count = "(CASE WHEN \(restart) THEN 1 ELSE f.failures + 1 END)"
        return """
            INSERT INTO login_failure AS f (subject, failures, window_start, blocked_until)
            VALUES (\(p(1)), 1, \(p(2)), CASE WHEN 1 > \(p(3)) THEN \(p(2)) + \(p(5)) END)
            ON CONFLICT (subject) DO UPDATE SET
                failures = \(count),
                window_start = CASE WHEN \(restart) THEN \(p(2)) ELSE f.window_start END,
                blocked_until = CASE
                    WHEN f.blocked_until > \(p(2)) THEN f.blocked_until
                    WHEN \(count) > \(p(3)) THEN \(p(2)) + \(p(5))
                END
            RETURNING failures, blocked_until
            """
    }

    /// Seconds after which a subject's row may be deleted once its block is over: longer than
    /// any window (the sign-up window is an hour by default).
    package static let staleAfter: Double = 86_400

    /// Rows whose window and block are both over. Parameters: 1 now, 2 `staleAfter`.
    package static func deleteStale(_ p: (Int) -> String) -> String {
        "DELETE FROM login_failure WHERE window_start < \(p(1)) - \(p(2)) AND COALESCE(blocked_until, 0) < \(p(1))"
    }

    /// The table of addresses trusted per account (a good login from them).
    package static let trustTable = """
        CREATE TABLE IF NOT EXISTS login_trust (
            subject TEXT PRIMARY KEY NOT NULL,
            last_success DOUBLE PRECISION NOT NULL
        )
        """

    /// Invites: the code's SHA-256, uses left, expiry.
    package static let inviteTable = """
        CREATE TABLE IF NOT EXISTS invite (
            code_hash TEXT PRIMARY KEY NOT NULL,
            uses_left INTEGER NOT NULL,
            expires_at DOUBLE PRECISION,
            created_at DOUBLE PRECISION NOT NULL
        )
        """
}
