import ClassRules
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OnTheMapModels
import ServerConfig
import ServerQuery
import ServerStorage

/// `StudentLocation`: list, read one, create, update, delete, hide and unhide — under every
/// era's path. Who may do what is `Access`'s to say (Docs/Access.md); this controller resolves
/// the caller, reads, and hands every write to the one write path (`ClassWrites`), which asks the
/// rule and lets storage enforce it in the write's own transaction.
package struct LocationController: Sendable {
    let storage: any ServerStorage
    let writes: ClassWrites
    let configuration: ServerConfiguration
    let callers: CallerResolver
    let answers: ListAnswerCache
    /// Slots for the queries no index serves (a refused or over-budget answer is never cached).
    let expensiveQueries: ExpensiveQueryGate

    package init(
        storage: any ServerStorage, writes: ClassWrites, configuration: ServerConfiguration, callers: CallerResolver,
        answers: ListAnswerCache, expensiveQueries: ExpensiveQueryGate
    ) {
        self.storage = storage
        self.writes = writes
        self.configuration = configuration
        self.callers = callers
        self.answers = answers
        self.expensiveQueries = expensiveQueries
    }

    /// Registers the routes of one collection (`.v1`, `.parse`, `.parseOne`). The Parse app keys
    /// (`--parse-app-id`, `--parse-rest-key`) are checked on the Parse paths only: `/v1` never
    /// took them, and its clients do not send them.
    package func register(on router: Router<AppRequestContext>, paths: RequestPath.Locations, isV1: Bool) {
        let keyed = !isV1
        let keys: @Sendable (Request) throws -> Void = { request in if keyed { try checkParseKeys(request) } }
        router.get(RouterPath(paths.collection)) { request, _ in
            try keys(request)
            return try await list(request, isV1: isV1)
        }
        router.get(RouterPath(paths.object(":objectId"))) { request, context in
            try keys(request)
            return try await read(request, objectId: try context.parameters.require("objectId"))
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
        guard isV1 else { return }
        router.post(RouterPath(paths.hide(":objectId"))) { request, context in
            try await setHidden(request, objectId: try context.parameters.require("objectId"), hide: true)
        }
        router.post(RouterPath(paths.unhide(":objectId"))) { request, context in
            try await setHidden(request, objectId: try context.parameters.require("objectId"), hide: false)
        }
    }

    private func list(_ request: Request, isV1: Bool) async throws -> Response {
        let caller = try await callers.reader(request)
        var visibility = Access.visibility(for: caller)
        // A student's list is the public one unless one of their rows is hidden; only the public
        // answer is cached, so a hidden row never lands under a key another caller reads.
        if case .publicAndOwn(let key) = visibility, try await !storage.hasHiddenLocations(owner: key) {
            visibility = .public
        }
        let key = visibility == .public ? answers.key(isV1: isV1, query: request.uri.query) : nil
        if let key, let body = answers.answer(for: key) { return JSONResponse.body(body) }
        let generation = answers.generation
        var query = try ListQuery.parse(
            RawQuery.parse(request.uri.query), defaultLimit: configuration.defaultLimit, maxLimit: configuration.maxLimit,
            allowUniqueKeyParameter: isV1)
        query.visibility = visibility
        let json =
            query.isExpensive
            ? try await expensiveQueries.run { try await storage.locationList(query) }
            : try await storage.locationList(query)
        let body = ByteBuffer(bytes: json)
        if let key { answers.store(body, for: key, generation: generation) }
        return JSONResponse.body(body)
    }

    private func read(_ request: Request, objectId: String) async throws -> Response {
        let caller = try await callers.reader(request)
        guard let row = try await storage.location(objectId: objectId), Access.maySee(row, caller) else {
            throw APIFailure.objectNotFound()
        }
        var json = LocationJSON()
        json.write(row, keys: nil)
        return JSONResponse.raw(json.bytes)
    }

    private func create(_ request: Request, paths: RequestPath.Locations) async throws -> Response {
        var request = request
        let caller = try await callers.writer(request)
        let body = try await request.jsonBody(limit: configuration.maxBodyBytes, invalid: .invalidJSON())
        let changes = try LocationBody.changes(from: body, isCreate: true, maxStringBytes: configuration.maxStringBytes)
        defer { answers.invalidate() }
        let row: StoredLocation
        let permit: WritePermit
        do { permit = try Access.permit(.createLocation(uniqueKey: changes.uniqueKey), by: caller) } catch { throw error.failure }
        do { row = try await writes.createLocation(changes, permit) } catch let refusal as WriteRefusal { throw refusal.failure }
        let now = row.createdAt
        var headers = HTTPFields()
        headers[.location] = Self.absoluteLocation(of: request, path: paths.object(row.objectId))
        return JSONResponse.make(status: .created, CreatedLocation(createdAt: now, objectId: row.objectId), headers: headers)
    }

    private func update(_ request: Request, objectId: String) async throws -> Response {
        var request = request
        let caller = try await callers.writer(request)
        // The rule first, so that a caller it refuses is told so before the body is read.
        do { _ = try Access.requiredOwner(for: .update, caller) } catch { throw error.failure }
        let body = try await request.jsonBody(limit: configuration.maxBodyBytes, invalid: .invalidJSON())
        let changes = try LocationBody.changes(from: body, isCreate: false, maxStringBytes: configuration.maxStringBytes)
        defer { answers.invalidate() }
        let permit: WritePermit
        do { permit = try Access.permit(.updateLocation(objectId: objectId), by: caller) } catch { throw error.failure }
        do {
            let now = try await writes.updateLocation(objectId: objectId, changes, permit)
            return JSONResponse.make(UpdatedLocation(updatedAt: now))
        } catch let refusal as WriteRefusal {
            throw refusal.failure
        }
    }

    /// Deletes a row: its owner, a moderator, or anyone under `--open-writes` (the 2015 Parse
    /// contract, in which any client with the app keys could delete any row).
    private func delete(_ request: Request, objectId: String) async throws -> Response {
        let caller = try await callers.writer(request)
        defer { answers.invalidate() }
        let permit: WritePermit
        do { permit = try Access.permit(.deleteLocation(objectId: objectId), by: caller) } catch { throw error.failure }
        do {
            try await writes.deleteLocation(objectId: objectId, permit)
        } catch let refusal as WriteRefusal {
            throw refusal.failure
        }
        return JSONResponse.raw(Array("{}".utf8))
    }

    /// `POST …/<id>/hide` (body `{"reason":"…"}`) and `…/unhide`: moderators only.
    private func setHidden(_ request: Request, objectId: String, hide: Bool) async throws -> Response {
        var request = request
        let caller = try await callers.writer(request)
        let permit: WritePermit
        do { permit = try Access.permit(.setHidden(objectId: objectId), by: caller) } catch { throw error.failure }
        var reason: String?
        if hide {
            let body = try await request.jsonBody(limit: configuration.maxBodyBytes, invalid: .invalidJSON())
            if case .string(let text) = body["reason"] { reason = text } else { reason = "" }
        }
        defer { answers.invalidate() }
        do {
            let now = try await writes.setHidden(objectId: objectId, reason: reason, permit)
            return JSONResponse.make(UpdatedLocation(updatedAt: now))
        } catch let refusal as WriteRefusal {
            throw refusal.failure
        }
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
