import ClassRules
import Foundation
import ServerStorage

/// `onthemap-server restore`, an act of the one write path (Docs/Access.md): the operator's
/// permit for this file, `ClassWrites.restoreDatabase`, the storage's restore. The file's checks
/// and the sentences are `SQLiteBackup.restore`'s.
extension ServerDatabase {
    /// Replaces the database with the backup file at `path` (an absolute path: it is what the
    /// audit entry names), unless the database holds a location or an account and not `force`.
    package func restore(from path: String, force: Bool) async throws -> RestoreOutcome {
        try await writes.restoreDatabase(from: path, replacingNonEmpty: force, try permit(.restoreDatabase(from: path)))
    }
}
