/// An account's role (Docs/Access.md).
package enum AccountRole: String, Sendable, Hashable, CaseIterable {
    case student
    case moderator
}
