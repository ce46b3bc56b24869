import Foundation
import OnTheMapModels
import ServerQuery
import ServerStorage
import enum ServerStorage.Predicate

/// A client's message, parsed (Parse LiveQuery protocol, Docs/API.md "LiveQuery").
enum LiveQueryRequest: Sendable {
    struct Query: Sendable {
        var predicate: Predicate
        var fields: Set<LocationField>?
    }

    case connect(applicationId: String?, restAPIKey: String?, sessionToken: String?)
    case subscribe(requestId: Int, query: Query, sessionToken: String?)
    case update(requestId: Int, query: Query, sessionToken: String?)
    case unsubscribe(requestId: Int)
    case query(requestId: Int)

    /// Reads one text frame; throws the `error` to answer with.
    static func parse(_ text: String) throws(LiveQueryError) -> LiveQueryRequest {
        guard let object = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), case .object(let fields) = object
        else { throw LiveQueryError(code: 107, "invalid JSON: a message is one JSON object") }
        guard case .string(let op)? = fields["op"] else { throw LiveQueryError(code: 107, "a message needs an op") }
        func string(_ name: String) throws(LiveQueryError) -> String? {
            switch fields[name] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            default: throw LiveQueryError(code: 107, "\(name) must be a string")
            }
        }
        func requestId() throws(LiveQueryError) -> Int {
            guard case .number(let number)? = fields["requestId"], let id = Int(exactly: number), id >= 0, id <= Int(Int32.max)
            else { throw LiveQueryError(code: 107, "requestId must be a whole number") }
            return id
        }
        switch op {
        case "connect":
            let restAPIKey = try string("restAPIKey")
            let clientKey = try string("clientKey")
            return .connect(
                applicationId: try string("applicationId"), restAPIKey: restAPIKey ?? clientKey,
                sessionToken: try string("sessionToken"))
        case "subscribe", "update":
            let id = try requestId()
            guard case .object(let query)? = fields["query"] else { throw LiveQueryError(code: 107, "\(op) needs a query object") }
            let parsed = try Self.query(query)
            let token = try string("sessionToken")
            return op == "subscribe" ? .subscribe(requestId: id, query: parsed, sessionToken: token)
                : .update(requestId: id, query: parsed, sessionToken: token)
        case "unsubscribe": return .unsubscribe(requestId: try requestId())
        case "query": return .query(requestId: try requestId())
        default: throw LiveQueryError(code: 107, "unknown op")
        }
    }

    private static func query(_ query: [String: JSONValue]) throws(LiveQueryError) -> Query {
        guard case .string(let className)? = query["className"], className == "StudentLocation" else {
            throw LiveQueryError(code: 119, "only className StudentLocation can be subscribed to")
        }
        var predicate = Predicate.always
        if let whereValue = query["where"], whereValue != .null {
            // The REST list's parser, so the same operators, codes and WhereLimits apply.
            guard let data = try? JSONEncoder().encode(whereValue) else { throw LiveQueryError(code: 107, "invalid where") }
            do throws(QueryRefusal) {
                var limits = WhereLimits()
                predicate = try WhereParser.parse(String(decoding: data, as: UTF8.self), limits: &limits)
            } catch {
                throw LiveQueryError(refusal: error)
            }
        }
        var fields: Set<LocationField>?
        switch query["fields"] ?? query["keys"] {
        case nil, .null?: break
        case .array(let items)?:
            guard items.count <= LocationField.allCases.count * 4 else { throw LiveQueryError(code: 102, "too many fields") }
            fields = Set(items.compactMap { $0.stringValue.flatMap(LocationField.init(rawValue:)) })
        default: throw LiveQueryError(code: 102, "fields must be an array of field names")
        }
        return Query(predicate: predicate, fields: fields)
    }
}

/// An `error` message: Parse's error codes, as the REST API uses them.
struct LiveQueryError: Error, Sendable {
    var code: Int
    var message: String
    /// Whether the client may retry the same thing later.
    var reconnect = false

    init(code: Int, _ message: String, reconnect: Bool = false) {
        self.code = code
        self.message = message
        self.reconnect = reconnect
    }

    /// A query the REST list would refuse, with the code and text the REST list gives.
    init(refusal: QueryRefusal) {
        self.init(code: refusal.code, refusal.message)
    }
}

/// The server's messages, written by hand with `LocationJSON` (rows exactly as the REST list
/// sends them).
enum LiveQueryReply {
    static func connected(clientId: Int) -> String { #"{"op":"connected","clientId":\#(clientId)}"# }

    static func subscription(_ op: String, clientId: Int, requestId: Int) -> String {
        #"{"op":"\#(op)","clientId":\#(clientId),"requestId":\#(requestId)}"#
    }

    static func error(_ error: LiveQueryError, requestId: Int? = nil) -> String {
        var json = LocationJSON()
        json.raw(#"{"op":"error","code":\#(error.code),"error":"#)
        json.writeString(error.message)
        json.raw(#","reconnect":\#(error.reconnect)"#)
        if let requestId { json.raw(#","requestId":\#(requestId)"#) }
        json.raw("}")
        return json.text
    }

    /// `create`, `update`, `enter`, `leave`, `delete`; `original` only for `update`.
    static func event(
        _ op: String, clientId: Int, requestId: Int, object: StoredLocation, original: StoredLocation?,
        fields: Set<LocationField>?
    ) -> String {
        var json = LocationJSON(capacity: 600)
        json.raw(#"{"op":"\#(op)","clientId":\#(clientId),"requestId":\#(requestId),"object":"#)
        json.write(object, keys: fields)
        if let original {
            json.raw(#","original":"#)
            json.write(original, keys: fields)
        }
        json.raw("}")
        return json.text
    }

    static func result(clientId: Int, requestId: Int, rows: [StoredLocation], fields: Set<LocationField>?) -> String {
        var json = LocationJSON(capacity: rows.count * 280 + 64)
        json.raw(#"{"op":"result","clientId":\#(clientId),"requestId":\#(requestId),"results":["#)
        for (index, row) in rows.enumerated() {
            if index > 0 { json.raw(",") }
            json.write(row, keys: fields)
        }
        json.raw("]}")
        return json.text
    }
}

extension LocationJSON {
    fileprivate mutating func raw(_ text: String) { appendRaw(text) }
}
