import Foundation

/// Why PostgreSQL storage could not be opened.
enum PostgresStorageError: Error, CustomStringConvertible {
    case badURL(String)

    var description: String {
        switch self {
        case .badURL(let detail): return "bad PostgreSQL URL: \(detail)"
        }
    }
}

/// The PostgreSQL schema, idempotent so that any instance may apply it at start.
enum PostgresSchema {
    static let version1 = [
        """
        CREATE TABLE IF NOT EXISTS student_location (
            object_id TEXT COLLATE "C" PRIMARY KEY,
            unique_key TEXT COLLATE "C",
            first_name TEXT COLLATE "C",
            last_name TEXT COLLATE "C",
            map_string TEXT COLLATE "C",
            media_url TEXT COLLATE "C",
            latitude DOUBLE PRECISION,
            longitude DOUBLE PRECISION,
            created_at TEXT COLLATE "C" NOT NULL,
            updated_at TEXT COLLATE "C" NOT NULL
        )
        """,
        "CREATE INDEX IF NOT EXISTS student_location_updated ON student_location (updated_at, object_id)",
        "CREATE INDEX IF NOT EXISTS student_location_unique_key ON student_location (unique_key, updated_at)",
        """
        CREATE TABLE IF NOT EXISTS account (
            key TEXT COLLATE "C" PRIMARY KEY,
            email TEXT NOT NULL,
            password_hash TEXT NOT NULL,
            first_name TEXT NOT NULL,
            last_name TEXT NOT NULL,
            created_at TEXT NOT NULL
        )
        """,
        "CREATE UNIQUE INDEX IF NOT EXISTS account_email ON account (lower(email))",
        """
        CREATE TABLE IF NOT EXISTS session (
            id TEXT COLLATE "C" PRIMARY KEY,
            account_key TEXT NOT NULL REFERENCES account(key) ON DELETE CASCADE,
            xsrf_token TEXT COLLATE "C" NOT NULL UNIQUE,
            expires_at DOUBLE PRECISION NOT NULL
        )
        """,
    ]
}
