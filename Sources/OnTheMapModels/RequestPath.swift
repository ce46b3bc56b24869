/// Every request path of the wire contract, defined once: the API client builds its requests from
/// these, the server registers its routes from them, and a server test checks that the routes are
/// exactly the paths and methods of the OpenAPI document (`scripts/openapi/generate.py`).
public enum RequestPath {
    /// The Udacity-style session and users endpoints under one prefix.
    public struct Accounts: Sendable, Hashable {
        /// `/v1` or `/api`.
        public let prefix: String

        /// This server's own paths: users answered flat.
        public static let v1 = Accounts(prefix: "/v1")
        /// The original service's paths: users wrapped in `user`.
        public static let api = Accounts(prefix: "/api")

        public var session: String { prefix + "/session" }
        public var users: String { prefix + "/users" }
        public var authProviders: String { prefix + "/auth/providers" }

        /// One user. `key` is one path segment, escaped by the caller (the router passes `:key`).
        public func user(_ key: String) -> String { users + "/" + key }
        /// `GET`: everything the server holds of one account (the account itself only).
        public func export(_ key: String) -> String { user(key) + "/export" }
    }

    /// A StudentLocation collection and its rows.
    public struct Locations: Sendable, Hashable {
        public let collection: String

        /// This server's own path (it also takes a `uniqueKey` query parameter).
        public static let v1 = Locations(collection: "/v1/StudentLocation")
        /// Parse's path, which the original clients used.
        public static let parse = Locations(collection: "/parse/classes/StudentLocation")
        /// Parse's oldest path (api.parse.com's `/1/`), still served for old clients.
        public static let parseOne = Locations(collection: "/1/classes/StudentLocation")

        /// One row. `objectId` is one path segment, escaped by the caller (the router passes `:objectId`).
        public func object(_ objectId: String) -> String { collection + "/" + objectId }
        /// `POST`: a moderator hides a row (`/v1` only).
        public func hide(_ objectId: String) -> String { object(objectId) + "/hide" }
        /// `POST`: a moderator shows a hidden row again (`/v1` only).
        public func unhide(_ objectId: String) -> String { object(objectId) + "/unhide" }
    }

    /// `GET`: whether the database answers.
    public static let health = "/healthz"
    /// `GET`: the OpenAPI document.
    public static let openAPI = "/openapi.json"
    /// Parse LiveQuery: a WebSocket upgrade at the root (`ws://host:port/`), not an HTTP route
    /// (the OpenAPI document's description names it).
    public static let liveQuery = "/"
    /// `GET`: Prometheus metrics, when the server records them.
    public static let metrics = "/metrics"
}
