/// The change log's table and triggers, for SQLite and PostgreSQL side by side (Docs/Architecture.md,
/// "The change log").
///
/// The triggers are the write path's one hook: they run inside every transaction that writes
/// `student_location`, `account` or `session`, whoever wrote it, so no writer can leave a change
/// out — and a change is in the log exactly when its write committed. An entry holds the row
/// before and after (every column, the hidden mark included), so an instance that reads it needs
/// nothing else to decide each subscriber's event.
package enum ChangeLogSQL {
    static let locationKind = "location"
    static let accountKind = "account"
    static let refreshKind = "refresh"
    static let reloadKind = "reload"
    /// How far above the higher of the two logs' ends (the live database's, read just before the
    /// copy, and the backup's) a restore numbers its `reload` entry: a write another instance
    /// commits in the moment between that read and the copy cannot carry a follower past it.
    package static let reloadMargin: Int64 = 1_000_000
    /// PostgreSQL's channel: every logging transaction notifies it once (payload folded), so that
    /// every instance reads the log at once instead of at its next poll.
    package static let channel = "change_log"
    /// Entries older than this are deleted (by any instance, now and then): an instance that was
    /// down longer starts from the end of the log, as at its first start.
    package static let keepSeconds = 600.0

    /// The columns of a row as a trigger records it (the read columns: client fields, hidden mark).
    static let rowColumns = AccessSQL.readColumns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }

    // MARK: Reading

    /// The entries after `seq` or among `missing` (`?` parameters: `after`, then each of `missing`,
    /// then the limit), oldest first.
    package static func entries(missing: Int, p: (Int) -> String) -> String {
        let gaps = missing == 0 ? "" : " OR seq IN (" + (0..<missing).map { p($0 + 2) }.joined(separator: ", ") + ")"
        return "SELECT seq, kind, subject, row_before, row_after FROM change_log WHERE seq > \(p(1))\(gaps) ORDER BY seq LIMIT \(p(missing + 2))"
    }
    package static let end = "SELECT COALESCE(MAX(seq), 0) FROM change_log"
    package static func prune(_ p: (Int) -> String) -> String { "DELETE FROM change_log WHERE at < \(p(1))" }
    /// Replaces what was logged after sequence number `p(1)` with one `refresh` entry, inside the
    /// transaction that logged it: only `fillSynthetic`'s benchmark rows, which no subscriber is
    /// told of one by one (the list caches still learn that the table changed).
    package static func refreshAfter(_ p: (Int) -> String, now: String) -> [String] {
        [
            "DELETE FROM change_log WHERE seq > \(p(1))",
            "INSERT INTO change_log (at, kind, subject) VALUES (\(now), '\(refreshKind)', '')",
        ]
    }
    /// The one entry a restored database's log holds (`restore`): numbered `p(1)`, above every
    /// number any instance has read, so every follower reads it and then follows the restored log.
    package static func reload(_ p: (Int) -> String, now: String) -> [String] {
        [
            "DELETE FROM change_log",
            "INSERT INTO change_log (seq, at, kind, subject) VALUES (\(p(1)), \(now), '\(reloadKind)', '')",
        ]
    }
    package static let sqliteNowExpression = sqliteNow
    package static let postgresNowExpression = postgresNow

    // MARK: SQLite

    /// Seconds since 1970 with SQLite's millisecond clock (`unixepoch('subsec')` needs 3.42).
    private static let sqliteNow = "((julianday('now') - 2440587.5) * 86400.0)"

    private static func sqliteJSON(_ row: String) -> String {
        "json_object(" + rowColumns.map { "'\($0)', \(row).\($0)" }.joined(separator: ", ") + ")"
    }

    private static func sqliteLog(kind: String, subject: String, before: String, after: String) -> String {
        "INSERT INTO change_log (at, kind, subject, row_before, row_after) VALUES (\(sqliteNow), '\(kind)', \(subject), \(before), \(after));"
    }

    /// SQLite: the table, its index and one trigger per kind of write.
    package static let sqlite: [String] = [
        """
        CREATE TABLE IF NOT EXISTS change_log (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            at REAL NOT NULL,
            kind TEXT NOT NULL,
            subject TEXT NOT NULL,
            row_before TEXT,
            row_after TEXT
        )
        """,
        "CREATE INDEX IF NOT EXISTS change_log_at ON change_log (at)",
        """
        CREATE TRIGGER IF NOT EXISTS change_log_location_insert AFTER INSERT ON student_location BEGIN
            \(sqliteLog(kind: locationKind, subject: "NEW.object_id", before: "NULL", after: sqliteJSON("NEW")))
        END
        """,
        """
        CREATE TRIGGER IF NOT EXISTS change_log_location_update AFTER UPDATE ON student_location BEGIN
            \(sqliteLog(kind: locationKind, subject: "NEW.object_id", before: sqliteJSON("OLD"), after: sqliteJSON("NEW")))
        END
        """,
        """
        CREATE TRIGGER IF NOT EXISTS change_log_location_delete AFTER DELETE ON student_location BEGIN
            \(sqliteLog(kind: locationKind, subject: "OLD.object_id", before: sqliteJSON("OLD"), after: "NULL"))
        END
        """,
        """
        CREATE TRIGGER IF NOT EXISTS change_log_account_update AFTER UPDATE OF role, suspended_at ON account BEGIN
            \(sqliteLog(kind: accountKind, subject: "NEW.key", before: "NULL", after: "NULL"))
        END
        """,
        """
        CREATE TRIGGER IF NOT EXISTS change_log_account_delete AFTER DELETE ON account BEGIN
            \(sqliteLog(kind: accountKind, subject: "OLD.key", before: "NULL", after: "NULL"))
        END
        """,
        """
        CREATE TRIGGER IF NOT EXISTS change_log_session_delete AFTER DELETE ON session BEGIN
            \(sqliteLog(kind: accountKind, subject: "OLD.account_key", before: "NULL", after: "NULL"))
        END
        """,
    ]

    // MARK: PostgreSQL

    private static let postgresNow = "extract(epoch FROM clock_timestamp())"

    private static func postgresLog(kind: String, subject: String, before: String, after: String) -> String {
        "INSERT INTO change_log (at, kind, subject, row_before, row_after) VALUES (\(postgresNow), '\(kind)', \(subject), \(before), \(after));"
    }

    /// PostgreSQL: the table, its index, the trigger functions and triggers (idempotent, like the
    /// rest of the schema), and the end of the statement-level notification the log replaces.
    package static let postgres: [String] = [
        """
        CREATE TABLE IF NOT EXISTS change_log (
            seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            at DOUBLE PRECISION NOT NULL,
            kind TEXT NOT NULL,
            subject TEXT COLLATE "C" NOT NULL,
            row_before TEXT,
            row_after TEXT
        )
        """,
        "CREATE INDEX IF NOT EXISTS change_log_at ON change_log (at)",
        """
        CREATE OR REPLACE FUNCTION change_log_location() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'INSERT' THEN
                \(postgresLog(kind: locationKind, subject: "NEW.object_id", before: "NULL", after: "row_to_json(NEW)::text"))
            ELSIF TG_OP = 'UPDATE' THEN
                \(postgresLog(kind: locationKind, subject: "NEW.object_id", before: "row_to_json(OLD)::text", after: "row_to_json(NEW)::text"))
            ELSE
                \(postgresLog(kind: locationKind, subject: "OLD.object_id", before: "row_to_json(OLD)::text", after: "NULL"))
            END IF;
            PERFORM pg_notify('\(channel)', '');
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION change_log_account() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            \(postgresLog(kind: accountKind, subject: "OLD.key", before: "NULL", after: "NULL"))
            PERFORM pg_notify('\(channel)', '');
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION change_log_session() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            \(postgresLog(kind: accountKind, subject: "OLD.account_key", before: "NULL", after: "NULL"))
            PERFORM pg_notify('\(channel)', '');
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE OR REPLACE TRIGGER change_log_location AFTER INSERT OR UPDATE OR DELETE ON student_location
            FOR EACH ROW EXECUTE FUNCTION change_log_location()
        """,
        """
        CREATE OR REPLACE TRIGGER change_log_account AFTER UPDATE OF role, suspended_at OR DELETE ON account
            FOR EACH ROW EXECUTE FUNCTION change_log_account()
        """,
        """
        CREATE OR REPLACE TRIGGER change_log_session AFTER DELETE ON session
            FOR EACH ROW EXECUTE FUNCTION change_log_session()
        """,
        "DROP TRIGGER IF EXISTS student_location_changed ON student_location",
        "DROP FUNCTION IF EXISTS student_location_notify()",
    ]
}
