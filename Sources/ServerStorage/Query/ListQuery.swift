/// A parsed `GET StudentLocation` request: what to match, how to sort, which page, which fields.
public struct ListQuery: Sendable, Hashable {
    package struct SortKey: Sendable, Hashable {
        package var field: LocationField
        package var descending: Bool

        package init(field: LocationField, descending: Bool) {
            self.field = field
            self.descending = descending
        }
    }

    package var predicate: Predicate = .always
    package var order: [SortKey] = []
    package var limit: Int = 100
    package var skip: Int = 0
    package var includeCount = false
    /// `nil`: every field. objectId, createdAt and updatedAt are always sent.
    package var keys: Set<LocationField>? = nil
    /// Which rows the caller may see; every row unless a request's caller narrows it (`Access`).
    package var visibility: RowVisibility = .all

    package init(
        predicate: Predicate = .always, order: [SortKey] = [], limit: Int = 100, skip: Int = 0, includeCount: Bool = false,
        keys: Set<LocationField>? = nil, visibility: RowVisibility = .all
    ) {
        self.predicate = predicate
        self.order = order
        self.limit = limit
        self.skip = skip
        self.includeCount = includeCount
        self.keys = keys
        self.visibility = visibility
    }

    /// Every row of one account (hidden ones too), in `order`: exports, moderation and the
    /// change feed's reads of an account's rows.
    package static func rows(of accountKey: String, order: [SortKey] = [], limit: Int) -> ListQuery {
        ListQuery(predicate: .compare(.uniqueKey, .equal, .text(accountKey)), order: order, limit: limit)
    }
}
