import ServerStorage

/// Who is asking, resolved once per request by `CallerResolver` (or by LiveQuery for a subscriber).
package enum Caller: Sendable, Hashable {
    /// No session, and writes are not open.
    case anonymous
    /// No session, and the server runs with `--open-writes` (the 2015 Parse contract).
    case openWriter
    /// A live session of this account.
    case account(key: String, role: AccountRole)

    package var accountKey: String? {
        if case .account(let key, _) = self { return key }
        return nil
    }
}

/// A write to a StudentLocation row.
package enum LocationWrite: Sendable, Hashable {
    case update
    case delete
}

/// Why the rule refuses an act.
package enum AccessRefusal: Error, Sendable, Hashable {
    /// The caller has no session and needs one (209).
    case needsSession
    /// The caller may not do this to this row (119).
    case forbidden(String)
}

/// The one rule of who may see and who may write a StudentLocation row (Docs/Access.md). Every
/// path asks it: lists, counts, single reads, the list cache, writes, moderation, exports and
/// LiveQuery. It is pure: storage facts (the row, the caller's role) go in, a decision comes out.
package enum Access {
    /// Whether `caller` may see `row` (hidden rows: their owner and moderators only).
    package static func maySee(_ row: StoredLocation, _ caller: Caller) -> Bool {
        guard row.isHidden else { return true }
        switch caller {
        case .anonymous, .openWriter: return false
        case .account(_, .moderator): return true
        case .account(let key, .student): return row.uniqueKey == key
        }
    }

    /// Which rows a list for `caller` may hold: the same rule as `maySee`, as a filter the
    /// database applies (so that counts and pages agree with it).
    package static func visibility(for caller: Caller) -> RowVisibility {
        switch caller {
        case .anonymous, .openWriter: return .public
        case .account(_, .moderator): return .all
        case .account(let key, .student): return .publicAndOwn(key)
        }
    }

    /// Checks that `caller` may create a row with this `uniqueKey`.
    package static func checkCreate(uniqueKey: String?, _ caller: Caller) throws(AccessRefusal) {
        switch caller {
        case .anonymous: throw .needsSession
        case .openWriter: return
        case .account(let key, _):
            guard uniqueKey == key else {
                throw .forbidden("You can only post locations for your own account (uniqueKey \(key)).")
            }
        }
    }

    /// The owner a row must have for `caller` to `write` it: `nil` when any row will do. The
    /// storage checks it in the write's own transaction (no race between check and write).
    package static func requiredOwner(for write: LocationWrite, _ caller: Caller) throws(AccessRefusal) -> String? {
        switch (caller, write) {
        case (.anonymous, _): throw .needsSession
        case (.openWriter, _): return nil
        case (.account(_, .moderator), .delete): return nil
        case (.account(let key, _), _): return key
        }
    }

    /// Whether `caller` may `write` this row (the same rule as `requiredOwner`, for one row in hand).
    package static func mayWrite(_ write: LocationWrite, _ row: StoredLocation, _ caller: Caller) -> Bool {
        do {
            let owner = try requiredOwner(for: write, caller)
            return owner == nil || row.uniqueKey == owner
        } catch {
            return false
        }
    }

    /// Checks that `caller` may hide or unhide rows (moderators only).
    package static func checkModerate(_ caller: Caller) throws(AccessRefusal) {
        switch caller {
        case .anonymous, .openWriter: throw .needsSession
        case .account(_, .student): throw .forbidden("Only moderators may hide or unhide locations.")
        case .account(_, .moderator): return
        }
    }
}
