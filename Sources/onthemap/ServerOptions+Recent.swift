import APIClient
import ArgumentParser
import OnTheMapModels

extension ServerOptions {
    /// The `count` most recent usable locations from the configured (or built-in) server; on
    /// failure, one line on stderr and exit status 1. The built-in server is stopped afterwards.
    func recentLocations(count: Int) async throws -> StudentLocationList {
        let connection = try await connect()
        let result: Result<StudentLocationList, APIError>
        do {
            result = .success(try await connection.client.recentLocations(count: count))
        } catch {
            result = .failure(error)
        }
        await connection.close()
        switch result {
        case .success(let list): return list
        case .failure(let error): throw ListCommand.fail(error.userMessage)
        }
    }
}
