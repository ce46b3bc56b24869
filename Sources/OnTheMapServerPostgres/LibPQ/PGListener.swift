import Foundation
import Logging
import NIOConcurrencyHelpers

/// Listens on one channel on a connection of its own, on a thread of its own: `signal` is called
/// once when it starts listening (for what was notified before) and once for each batch of
/// notifications. While the connection is down (PostgreSQL restarting) nothing is heard: it
/// reconnects every second and signals again when it does.
final class PGListener: Sendable {
    /// Written once by `stop` to wake the thread's `poll` at once (-1 when no pipe could be made:
    /// the thread then sees `stopped` within a second, its longest wait).
    private let wake: (read: Int32, write: Int32)
    private let stopped = NIOLockedValueBox(false)
    private let finished = DispatchSemaphore(value: 0)

    init(parameters: PGParameters, channel: String, logger: Logger, signal: @escaping @Sendable () -> Void) {
        var descriptors: [Int32] = [-1, -1]
        if pipe(&descriptors) != 0 { descriptors = [-1, -1] }
        let wake = (read: descriptors[0], write: descriptors[1])
        self.wake = wake
        let (finished, stopped) = (self.finished, self.stopped)
        let thread = Thread {
            Self.run(
                parameters: parameters, channel: channel, wake: wake.read, stopped: { stopped.withLockedValue { $0 } },
                logger: logger, signal: signal)
            finished.signal()
        }
        thread.name = "onthemap.postgres.listen"
        thread.start()
    }

    /// Stops listening and waits for the thread to end.
    func stop() {
        stopped.withLockedValue { $0 = true }
        var byte: UInt8 = 1
        if wake.write >= 0 { _ = write(wake.write, &byte, 1) }
        finished.wait()
        if wake.read >= 0 {
            close(wake.read)
            close(wake.write)
        }
    }

    private static func run(
        parameters: PGParameters, channel: String, wake: Int32, stopped: () -> Bool, logger: Logger,
        signal: @Sendable () -> Void
    ) {
        let quoted = "\"" + channel.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        while !stopped() {
            do {
                let connection = try PGConnection(parameters)
                _ = try connection.execute(PGQuery(unsafeSQL: "LISTEN \(quoted)"))
                signal()
                while !stopped() {
                    var descriptors = [
                        pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                    ]
                    let ready = poll(&descriptors, 2, 1000)
                    if ready < 0 {
                        if errno == EINTR { continue }
                        break
                    }
                    if descriptors[1].revents != 0 || stopped() { return }
                    if ready == 0 { continue }
                    guard let count = connection.takeNotifications() else { break }
                    if count > 0 { signal() }
                }
                if stopped() { return }
                logger.warning("not listening for the change log's notifications (the connection ended); retrying in 1 s")
            } catch {
                logger.warning(
                    "not listening for the change log's notifications; retrying in 1 s", metadata: ["error": "\(error)"])
            }
            var descriptor = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 1000) > 0 || stopped() { return }
        }
    }
}
