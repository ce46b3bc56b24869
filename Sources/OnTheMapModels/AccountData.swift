/// `DELETE …/users/<key>`'s answer: what went with the account,
/// `{"deleted":{"locations":N,"sessions":M}}` (Docs/Access.md).
public struct AccountDeletion: Codable, Sendable, Hashable {
    public struct Counts: Codable, Sendable, Hashable {
        public var locations: Int
        public var sessions: Int

        public init(locations: Int, sessions: Int) {
            self.locations = locations
            self.sessions = sessions
        }
    }

    public var deleted: Counts

    public init(locations: Int, sessions: Int) { deleted = Counts(locations: locations, sessions: sessions) }
}

/// `GET …/users/<key>/export`'s answer, `{"account":{…},"locations":[…]}`: kept as the server
/// sent it (so `onthemap export` writes every field), with the rows readable as records.
public struct AccountExport: Codable, Sendable, Hashable {
    public var account: JSONValue
    public var locations: [JSONValue]

    public init(account: JSONValue, locations: [JSONValue]) {
        self.account = account
        self.locations = locations
    }

    /// The usable rows (hidden ones marked), as records.
    public var rows: [StudentInformation] { locations.compactMap(StudentInformation.init(json:)) }
}
