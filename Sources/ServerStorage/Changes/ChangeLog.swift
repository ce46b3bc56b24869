import Foundation

/// One entry of the change log (Docs/Architecture.md, "The change log"): what the database's own
/// triggers recorded, in the writing transaction, for every write to a StudentLocation row and
/// for every change to who an account is (role, suspension, deletion, a session ending) — by any
/// writer: a request of any instance, an `onthemap-server` command in another process, `import`,
/// even `sqlite3` or `psql` by hand.
public struct LoggedChange: Sendable, Hashable {
    /// The log's sequence number: increasing in insertion order (on PostgreSQL not always in
    /// commit order, which `ChangeLogFollower` allows for).
    package var seq: Int64
    package var change: Change

    package enum Change: Sendable, Hashable {
        /// A StudentLocation row before and after one write, hidden mark included.
        case location(LocationChange)
        /// Something about this account changed that may change what its sockets may see.
        case account(key: String)
        /// Rows were added that no subscriber is told of one by one (`fillSynthetic`): what was
        /// read before is out of date.
        case refresh
        /// The whole database was replaced (`restore`): everything read before — caches,
        /// subscriptions, the callers of sockets — is of another database.
        case reload
    }

    package init(seq: Int64, change: Change) {
        self.seq = seq
        self.change = change
    }

    /// An entry as the table holds it; `nil` for a kind this version does not know.
    package init?(seq: Int64, kind: String, subject: String, before: String?, after: String?) {
        self.seq = seq
        switch kind {
        case ChangeLogSQL.locationKind:
            let before = before.flatMap(StoredLocation.init(loggedJSON:))
            let after = after.flatMap(StoredLocation.init(loggedJSON:))
            guard before != nil || after != nil else { return nil }
            change = .location(LocationChange(before: before, after: after, seq: seq))
        case ChangeLogSQL.accountKind:
            change = .account(key: subject)
        case ChangeLogSQL.refreshKind:
            change = .refresh
        case ChangeLogSQL.reloadKind:
            change = .reload
        default:
            return nil
        }
    }
}

extension StoredLocation {
    /// A row as a trigger wrote it: a JSON object keyed by column name (SQLite's `json_object`,
    /// PostgreSQL's `row_to_json`). A coordinate that is not a finite number is read as missing.
    init?(loggedJSON json: String) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any],
            let objectId = object["object_id"] as? String
        else { return nil }
        func text(_ column: String) -> String? { object[column] as? String }
        func number(_ column: String) -> Double? {
            guard let value = object[column] as? NSNumber, !(object[column] is String) else { return nil }
            let double = value.doubleValue
            return double.isFinite ? double : nil
        }
        self.init(
            objectId: objectId, uniqueKey: text("unique_key"), firstName: text("first_name"), lastName: text("last_name"),
            mapString: text("map_string"), mediaURL: text("media_url"), latitude: number("latitude"),
            longitude: number("longitude"), createdAt: text("created_at") ?? "", updatedAt: text("updated_at") ?? "",
            hiddenAt: text("hidden_at"), hiddenReason: text("hidden_reason"), hiddenBy: text("hidden_by"))
    }
}
