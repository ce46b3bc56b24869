/// A write `ClassWrites` can do, named with its target: what a `WritePermit` allows.
package enum WriteAct: Sendable, Hashable {
    /// A new row with this `uniqueKey` (the API).
    case createLocation(uniqueKey: String?)
    /// Changes to this row (the API).
    case updateLocation(objectId: String)
    /// Deleting this row (the API, the operator).
    case deleteLocation(objectId: String)
    /// Hiding or showing again this row (moderators, the operator).
    case setHidden(objectId: String)
    /// Deleting this account, its sessions and rows (the account itself, the operator).
    case deleteAccount(key: String)
    /// A new account (sign-up, a provider's first login, the operator's `user add`).
    case createAccount
    /// This account's role (the operator).
    case setRole(key: String)
    /// Suspending or letting back this account (the operator).
    case setSuspended(key: String)
    /// This account's password (the operator's `user reset-password`).
    case setPassword(key: String)
    /// Rows added as they are (the operator's `import`, the demo seed).
    case importLocations
    /// Synthetic rows (the operator's benchmark seed).
    case fillSynthetic
    /// The whole database replaced by this backup file (the operator's `restore`).
    case restoreDatabase(from: String)
}

/// The proof that the rule allowed `caller` one act. Only `Access.permit(_:by:)` makes one (the
/// initializer is internal to ClassRules), and every write of `ClassWrites` takes one and checks
/// it is for that write and its target: a permit to delete row X deletes no row Y, a permit to
/// create a row for `ada` creates none for `bob`.
package struct WritePermit: Sendable, Hashable {
    /// What it allows.
    package let act: WriteAct
    /// Whom it allows.
    package let caller: Caller

    init(act: WriteAct, caller: Caller) {
        self.act = act
        self.caller = caller
    }
}

extension Access {
    /// Decides whether `caller` may do `act`: the permit the write path takes, or the refusal.
    /// The API's acts follow the table of Docs/Access.md (`checkCreate`, `requiredOwner`,
    /// `checkModerate`; an account is deleted by itself); the operator's acts (role, suspension,
    /// password, import, synthetic rows, restore) are the operator's alone; anyone may create an account
    /// (sign-up: the API's own checks, invites and the storage's unique e-mail decide the rest).
    /// What the permit cannot know ahead — whether the row exists, is visible to the caller, is
    /// the caller's — `ClassWrites` checks in the write.
    package static func permit(_ act: WriteAct, by caller: Caller) throws(AccessRefusal) -> WritePermit {
        switch act {
        case .createLocation(let uniqueKey): try checkCreate(uniqueKey: uniqueKey, caller)
        case .updateLocation: _ = try requiredOwner(for: .update, caller)
        case .deleteLocation: _ = try requiredOwner(for: .delete, caller)
        case .setHidden: try checkModerate(caller)
        case .deleteAccount(let key):
            guard caller.isOperator || caller.accountKey == key else {
                throw .forbidden("Only the account itself may do this: send its session.")
            }
        case .createAccount: break
        case .setRole, .setSuspended, .setPassword, .importLocations, .fillSynthetic, .restoreDatabase:
            guard caller.isOperator else { throw .forbidden("Only the operator may do this.") }
        }
        return WritePermit(act: act, caller: caller)
    }
}
