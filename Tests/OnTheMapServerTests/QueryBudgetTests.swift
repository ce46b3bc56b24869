import Foundation
import ServerTestSupport
import Testing

@testable import OnTheMapServer
@testable import ServerHTTP
@testable import ServerStorage

/// The time budget of a list query, on the storage itself: a scan that runs past it ends with
/// `QueryFailure.tooExpensive`, which the API answers "query too expensive" (SQLite: progress
/// handler and regex deadline; PostgreSQL: `statement_timeout`), and the connection serves the
/// next query normally.
@Suite struct QueryBudgetTests {
    @Test(arguments: TestBackend.available) func aQueryPastItsBudgetIsRefusedAndTheNextOneAnswers(_ backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        try await server.withDatabase { try await $0.seedSynthetic(count: 200_000) }
        var configuration = server.configuration
        configuration.queryTimeout = .milliseconds(20)
        let storage = try await ServerApplication.openStorage(configuration)
        defer { Task { await storage.close() } }

        // A regex over every row, counted and sorted by a column no index orders.
        let slow = try ListQuery.parse(
            RawQuery.parse(#"where={"mapString":{"$regex":"^(p|q)l.*[0-9]{3}$","$options":"i"}}&count=1&order=lastName"#),
            defaultLimit: 100, maxLimit: 1000, allowUniqueKeyParameter: true)
        let started = ContinuousClock.now
        do {
            _ = try await storage.locations(slow)
            Issue.record("the query finished within 20 ms")
        } catch let refusal as QueryFailure {
            // The storage's refusal, and the API's answer to it.
            #expect(refusal == .tooExpensive)
            let failure = APIFailure(refusal)
            #expect(failure.status == .badRequest)
            guard case .parse(let code, let message) = failure.body else { throw failure }
            #expect(code == 124)
            #expect(message == "query too expensive")
        }
        #expect(ContinuousClock.now - started < .seconds(5))

        // The connections are fine afterwards: the main request answers, on every reader. On a
        // loaded machine even it can pass the 20 ms budget now and then; that answer is the same
        // refusal and is asked again, while any other failure (a connection left broken) is not.
        let main = try ListQuery.parse(
            RawQuery.parse("limit=100&order=-updatedAt"), defaultLimit: 100, maxLimit: 1000, allowUniqueKeyParameter: true)
        var answered = 0
        var overBudget = 0
        while answered < 10 && overBudget < 50 {
            do {
                #expect(try await storage.locations(main).rows.count == 100)
                answered += 1
            } catch QueryFailure.tooExpensive {
                overBudget += 1
            }
        }
        #expect(answered == 10, "\(overBudget) answers over the budget")
    }
}
