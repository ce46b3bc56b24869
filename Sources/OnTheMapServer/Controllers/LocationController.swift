import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OnTheMapModels

/// `StudentLocation`: list, read one, create, update, delete — under every era's path.
struct LocationController: Sendable {
    let storage: any ServerStorage
    let configuration: ServerConfiguration
    let sessions: SessionAuthority
    let answers: ListAnswerCache
    /// Slots for the queries no index serves (a refused or over-budget answer is never cached).
    let expensiveQueries: ExpensiveQueryGate

    /// Registers the routes of one collection (`.v1`, `.parse`, `.parseOne`). The Parse app keys
    /// (`--parse-app-id`, `--parse-rest-key`) are checked on the Parse paths only: `/v1` never
    /// took them, and its clients do not send them.
    func register(on router: Router<AppRequestContext>, paths: RequestPath.Locations, isV1: Bool) {
        let keyed = !isV1
        let keys: @Sendable (Request) throws -> Void = { request in if keyed { try checkParseKeys(request) } }
        router.get(RouterPath(paths.collection)) { request, _ in
            try keys(request)
            return try await list(request, isV1: isV1)
        }
        router.get(RouterPath(paths.object(":objectId"))) { request, context in
            try keys(request)
            let id = try context.parameters.require("objectId")
            guard let row = try await storage.location(objectId: id) else { throw APIFailure.objectNotFound() }
            var json = LocationJSON()
            json.write(row, keys: nil)
            return JSONResponse.raw(json.bytes)
        }
        router.post(RouterPath(paths.collection)) { request, _ in
            try keys(request)
            return try await create(request, paths: paths)
        }
        router.put(RouterPath(paths.object(":objectId"))) { request, context in
            try keys(request)
            return try await update(request, objectId: try context.parameters.require("objectId"))
        }
        router.delete(RouterPath(paths.object(":objectId"))) { request, context in
            try keys(request)
            return try await delete(request, objectId: try context.parameters.require("objectId"))
        }
    }

    private func list(_ request: Request, isV1: Bool) async throws -> Response {
        let key = answers.key(isV1: isV1, query: request.uri.query)
        if let key, let body = answers.answer(for: key) { return JSONResponse.body(body) }
        let generation = answers.generation
        let query = try ListQuery.parse(
            RawQuery.parse(request.uri.query), defaultLimit: configuration.defaultLimit, maxLimit: configuration.maxLimit,
            allowUniqueKeyParameter: isV1)
        let (rows, count) =
            query.isExpensive
            ? try await expensiveQueries.run { try await storage.locations(query) } : try await storage.locations(query)
        var json = LocationJSON(capacity: rows.count * 280 + 32)
        json.writeList(rows, count: count, keys: query.keys)
        let body = ByteBuffer(bytes: json.bytes)
        if let key { answers.store(body, for: key, generation: generation) }
        return JSONResponse.body(body)
    }

    private func create(_ request: Request, paths: RequestPath.Locations) async throws -> Response {
        var request = request
        let owner = try await writer(request)
        let body = try await request.jsonBody(limit: configuration.maxBodyBytes, invalid: .invalidJSON())
        let changes = try LocationBody.changes(from: body, isCreate: true, maxStringBytes: configuration.maxStringBytes)
        if let owner, changes.uniqueKey != owner {
            throw APIFailure.forbidden("You can only post locations for your own account (uniqueKey \(owner)).")
        }
        let now = WireDate.string(from: Date())
        let row = StoredLocation(
            objectId: RandomID.alphanumeric(10), uniqueKey: changes.uniqueKey, firstName: changes.firstName,
            lastName: changes.lastName, mapString: changes.mapString, mediaURL: changes.mediaURL,
            latitude: changes.latitude, longitude: changes.longitude, createdAt: now, updatedAt: now)
        defer { answers.invalidate() }
        try await storage.insert(row)
        var headers = HTTPFields()
        headers[.location] = Self.absoluteLocation(of: request, path: paths.object(row.objectId))
        return JSONResponse.make(status: .created, CreatedLocation(createdAt: now, objectId: row.objectId), headers: headers)
    }

    private func update(_ request: Request, objectId: String) async throws -> Response {
        var request = request
        let owner = try await writer(request)
        let body = try await request.jsonBody(limit: configuration.maxBodyBytes, invalid: .invalidJSON())
        let changes = try LocationBody.changes(from: body, isCreate: false, maxStringBytes: configuration.maxStringBytes)
        if let owner, let key = changes.uniqueKey, key != owner {
            throw APIFailure.forbidden("You cannot give a location to another account.")
        }
        let now = WireDate.string(from: Date())
        defer { answers.invalidate() }
        switch try await storage.update(objectId: objectId, changes: changes, updatedAt: now, owner: owner) {
        case .done: return JSONResponse.make(UpdatedLocation(updatedAt: now))
        case .notFound: throw APIFailure.objectNotFound()
        case .notOwner: throw APIFailure.forbidden("This location belongs to another account.")
        }
    }

    private func delete(_ request: Request, objectId: String) async throws -> Response {
        // Never anonymous, even with --open-writes: the original clients never delete, and an
        // open DELETE would let anyone empty the class. Only the row's owner may.
        guard let token = request.bearerToken, let session = try await sessions.session(id: token) else {
            throw APIFailure.invalidSession()
        }
        let owner = session.accountKey
        defer { answers.invalidate() }
        switch try await storage.delete(objectId: objectId, owner: owner) {
        case .done: return JSONResponse.raw(Array("{}".utf8))
        case .notFound: throw APIFailure.objectNotFound()
        case .notOwner: throw APIFailure.forbidden("This location belongs to another account.")
        }
    }

    /// The account key a write must belong to, or `nil` when writes are open to all.
    private func writer(_ request: Request) async throws -> String? {
        if configuration.openWrites { return nil }
        guard let token = request.bearerToken, let session = try await sessions.session(id: token) else {
            throw APIFailure.invalidSession()
        }
        return session.accountKey
    }

    private func checkParseKeys(_ request: Request) throws {
        guard let applicationID = configuration.parseApplicationID, let restKey = configuration.parseRESTAPIKey else { return }
        guard request.headers[.parseApplicationID] == applicationID, request.headers[.parseRESTAPIKey] == restKey else {
            throw APIFailure.unauthorized()
        }
    }

    /// `http://host:port/<path>` from the request's Host header (Parse answered with absolute URLs).
    static func absoluteLocation(of request: Request, path: String) -> String {
        guard let host = request.head.authority else { return path }
        return "http://\(host)\(path)"
    }
}
