import Dispatch

/// Two halves of a picture's work at once, on two threads (the machine the app is made for has
/// two cores): `run` returns when both `work(0)` and `work(1)` have. The caller keeps the halves
/// apart — each writes its own rows — which is why `work` need not be `Sendable`. Not
/// `inParallel` (a terminal frame, too small to gain from a second thread), the halves run one
/// after the other on the caller's thread: one code path either way.
enum TwoThreads {
    static func run(inParallel: Bool = true, _ work: (Int) -> Void) {
        guard inParallel else {
            work(0)
            work(1)
            return
        }
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
