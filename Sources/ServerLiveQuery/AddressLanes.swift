import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// One serial queue per client address for the matching of writes to subscriptions, off the
/// change follower: each address's work runs in write order on its own lane, so an address whose
/// subscriptions are slow delays only its own events, never another address's.
///
/// A lane exists while it has work: it goes when its last piece of work ends and no other is
/// waiting, so the lanes kept are bounded by the addresses with work in flight, and a new lane for
/// the same address only starts after the old one has finished (the order holds).
final class AddressLanes: Sendable {
    private struct Lane {
        let queue: DispatchQueue
        var pending: Int
    }

    private let lanes = NIOLockedValueBox<[String: Lane]>([:])

    /// Runs `work` on `address`'s lane, after the work given to it before.
    func run(on address: String, _ work: @escaping @Sendable () -> Void) {
        let queue = lanes.withLockedValue { lanes -> DispatchQueue in
            var lane = lanes[address] ?? Lane(queue: DispatchQueue(label: "onthemap.livequery.address"), pending: 0)
            lane.pending += 1
            lanes[address] = lane
            return lane.queue
        }
        queue.async { [lanes] in
            work()
            lanes.withLockedValue { lanes in
                guard var lane = lanes[address] else { return }
                lane.pending -= 1
                lanes[address] = lane.pending > 0 ? lane : nil
            }
        }
    }

    /// The lanes with work now.
    var count: Int { lanes.withLockedValue { $0.count } }
}

/// The CPU time this thread has used: what a lane's work costs, whatever else the machine runs
/// meanwhile (a wall clock would charge a subscriber for a loaded machine).
func threadCPUTime() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
}
