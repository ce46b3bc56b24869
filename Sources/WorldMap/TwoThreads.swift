import Dispatch

/// Two halves of a picture's work at once, on two threads (the machine the app is made for has
/// two cores): `run` returns when both `work(0)` and `work(1)` have. The caller keeps the halves
/// apart — each writes its own rows — which is why `work` need not be `Sendable`.
enum TwoThreads {
    static func run(_ work: (Int) -> Void) {
        withoutActuallyEscaping(work) { work in
            let halves = Unchecked(work)
            DispatchQueue.concurrentPerform(iterations: 2) { halves.value($0) }
        }
    }

    /// `work` across threads: `run`'s halves write disjoint memory.
    private struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
