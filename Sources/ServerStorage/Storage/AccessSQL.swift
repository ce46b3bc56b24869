/// The statements of Docs/Access.md's storage facts, written once for SQLite and PostgreSQL;
/// `p(n)` spells the n-th parameter.
package enum AccessSQL {
    /// The columns a row is read with: the client fields, then the hidden mark.
    package static let readColumns =
        LocationField.allCases.map(\.column).joined(separator: ", ")
        + ", hidden_at, hidden_reason, hidden_by"

    /// The condition of the rows `visibility` lets a caller see (`nil`: every row); `bind` binds
    /// its one value, an account key, and spells the placeholder.
    package static func condition(_ visibility: RowVisibility, bind: (String) -> String) -> String? {
        switch visibility {
        case .all: return nil
        case .public: return "hidden_at IS NULL"
        case .publicAndOwn(let key): return "(hidden_at IS NULL OR unique_key = \(bind(key)))"
        case .hiddenOnly: return "hidden_at IS NOT NULL"
        }
    }

    /// One write of an account in its window, atomically. Parameters: 1 account key, 2 now, 3 window.
    package static func countWrite(_ p: (Int) -> String) -> String {
        let restart = "w.window_start <= \(p(2)) - \(p(3))"
        return """
            INSERT INTO write_count AS w (account_key, window_start, writes) VALUES (\(p(1)), \(p(2)), 1)
            ON CONFLICT (account_key) DO UPDATE SET
                writes = CASE WHEN \(restart) THEN 1 ELSE w.writes + 1 END,
                window_start = CASE WHEN \(restart) THEN \(p(2)) ELSE w.window_start END
            RETURNING writes, window_start
            """
    }

    /// Windows over for a day: deleted now and then (parameter 1: now).
    package static func deleteStaleWrites(_ p: (Int) -> String) -> String {
        "DELETE FROM write_count WHERE window_start < \(p(1)) - 86400"
    }

    /// Who hid a row when its account was suspended (unsuspending shows exactly those again).
    package static let suspension = "suspension"
    package static let suspensionReason = "account suspended"

    /// The tables both databases add (PostgreSQL spells the audit id as an identity column).
    package static func tables(auditID: String) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS write_count (
                account_key TEXT PRIMARY KEY NOT NULL,
                window_start DOUBLE PRECISION NOT NULL,
                writes INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS audit_log (
                id \(auditID),
                at TEXT NOT NULL,
                actor TEXT NOT NULL,
                action TEXT NOT NULL,
                target TEXT NOT NULL,
                reason TEXT
            )
            """,
            "CREATE INDEX IF NOT EXISTS audit_log_at ON audit_log (at)",
        ]
    }
}
