import CoreMetrics
import NIOPosix

/// The process-wide bound on password hashes (login, decoy, sign-up, all together).
///
/// bcrypt costs tens of milliseconds of CPU by design, so an unbounded number of them lets a
/// flood of logins starve every other request. At most `running` hashes run at once (on NIO's
/// thread pool), at most `waiting` more wait in line, each for at most `maxWait` (a hash takes
/// far longer on a machine that is busy anyway), and any beyond that are refused at once
/// (`HashGate.Busy`: the API's 503 with `Retry-After: 1`; `AdmissionGate`).
package final class HashGate: Sendable {
    private let gate: AdmissionGate

    /// No place freed in time, or the line was full. The API answers it 503
    /// `{"status":503,"error":"The server is busy. Try again in 1 second."}` with `Retry-After: 1`.
    package struct Busy: Error, Sendable, Hashable {
        package static let message = "The server is busy. Try again in 1 second."
        package static let retryAfterSeconds = 1
    }

    init(running: Int, waiting: Int, maxWait: Duration = .seconds(2)) {
        gate = AdmissionGate(limit: running, lineLimit: waiting, maxWait: maxWait)
    }

    /// Hashes waiting in line now.
    var waiting: Int { gate.waiting }

    /// Runs `work` (a bcrypt hash or check, named by `kind` in the metrics) when a place is free.
    /// - Throws: `Busy` when no place frees up in time, or the line is full.
    func run<T: Sendable>(_ kind: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let result: T? = try await gate.run {
            Counter(label: "onthemap_password_hashes_total", dimensions: [("kind", kind)]).increment()
            return try await NIOThreadPool.singleton.runIfActive(work)
        }
        guard let result else {
            Counter(label: "onthemap_password_hashes_refused_total").increment()
            throw Busy()
        }
        return result
    }
}
