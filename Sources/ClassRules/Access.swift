import ServerStorage

/// Who is asking. Only this target (ClassRules) builds one: its kind and initializer are
/// internal, so another target gets a caller from these named doors alone (Docs/Access.md, "What
/// the compiler keeps"):
/// - `anonymous`, which may see public rows and write nothing;
/// - `Caller.ofLiveSession(idHash:in:now:)`, an account's caller from a live session found in
///   storage, with the role stored now (the session authority asks it);
/// - `withoutSession(openWrites:)`, the API's caller of a request without a session;
/// - `operatorAtCommandLine()`, the operator's commands (ServerAdmin).
/// `scripts/check-architecture.py` keeps the last two to the files that may ask them.
package struct Caller: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// No session, and writes are not open.
        case anonymous
        /// No session, and the server runs with `--open-writes` (the 2015 Parse contract).
        case openWriter
        /// A live session of this account.
        case account(key: String, role: AccountRole)
        /// The operator at the command line (`onthemap-server`): every act, audited as `operator`.
        case `operator`
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    /// No session, and writes are not open: public rows, no writes.
    package static let anonymous = Caller(.anonymous)

    static let openWriter = Caller(.openWriter)

    static func account(key: String, role: AccountRole) -> Caller { Caller(.account(key: key, role: role)) }

    /// The caller of a request that has no session: `anonymous`, or under `--open-writes` the
    /// open writer (the 2015 Parse contract). Only the API's `CallerResolver` asks.
    package static func withoutSession(openWrites: Bool) -> Caller { openWrites ? .openWriter : .anonymous }

    /// The operator at the command line. Only the operator's commands (ServerAdmin) ask.
    package static func operatorAtCommandLine() -> Caller { Caller(.operator) }

    /// The caller of the live session whose id hashes to `idHash` (`SessionSeal.hash`), and when
    /// the session expires (seconds since 1970): the session's account with the role stored now;
    /// `nil` when no such session is live, or its account is gone or suspended. The one way to an
    /// account's caller: `SessionAuthority.caller(sessionID:)` asks it.
    package static func ofLiveSession(idHash: String, in storage: any ServerStorage, now: Double) async throws
        -> (caller: Caller, expiresAt: Double)?
    {
        guard let session = try await storage.session(idHash: idHash, now: now),
            let account = try await storage.account(key: session.accountKey), account.suspendedAt == nil
        else { return nil }
        return (.account(key: account.key, role: account.role), session.expiresAt)
    }

    /// The account's key, for an account's caller.
    package var accountKey: String? {
        if case .account(let key, _) = kind { return key }
        return nil
    }

    var isOperator: Bool { kind == .operator }
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
        switch caller.kind {
        case .anonymous, .openWriter: return false
        case .operator, .account(_, .moderator): return true
        case .account(let key, .student): return row.uniqueKey == key
        }
    }

    /// Which rows a list for `caller` may hold: the same rule as `maySee`, as a filter the
    /// database applies (so that counts and pages agree with it).
    package static func visibility(for caller: Caller) -> RowVisibility {
        switch caller.kind {
        case .anonymous, .openWriter: return .public
        case .operator, .account(_, .moderator): return .all
        case .account(let key, .student): return .publicAndOwn(key)
        }
    }

    /// Checks that `caller` may create a row with this `uniqueKey`.
    package static func checkCreate(uniqueKey: String?, _ caller: Caller) throws(AccessRefusal) {
        switch caller.kind {
        case .anonymous: throw .needsSession
        case .openWriter, .operator: return
        case .account(let key, _):
            guard uniqueKey == key else {
                throw .forbidden("You can only post locations for your own account (uniqueKey \(key)).")
            }
        }
    }

    /// The owner a row must have for `caller` to `write` it: `nil` when any row will do. The
    /// storage checks it in the write's own transaction (no race between check and write).
    package static func requiredOwner(for write: LocationWrite, _ caller: Caller) throws(AccessRefusal) -> String? {
        switch (caller.kind, write) {
        case (.anonymous, _): throw .needsSession
        case (.openWriter, _), (.operator, _): return nil
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
        switch caller.kind {
        case .anonymous, .openWriter: throw .needsSession
        case .account(_, .student): throw .forbidden("Only moderators may hide or unhide locations.")
        case .operator, .account(_, .moderator): return
        }
    }
}
