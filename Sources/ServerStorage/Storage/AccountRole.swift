/// An account's role (Docs/Access.md).
public enum AccountRole: String, Sendable, Hashable, CaseIterable {
    case student
    case moderator
}
