import Foundation

/// Reads a child's pipe to its end on a thread of its own, handing each chunk to `take`.
///
/// Not a `readabilityHandler`: its dispatch source spins at EOF, and a pipe whose descriptor was
/// closed while the source was still registered crashed libdispatch's event loop (SIGSEGV in
/// `_dispatch_event_loop_drain`) in a `make test` run. The thread ends at EOF, when the child's
/// end of the pipe closes.
public enum PipeDrain {
    public static func start(_ handle: FileHandle, _ take: @escaping @Sendable (Data) -> Void) {
        let thread = Thread {
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                take(data)
            }
        }
        thread.start()
    }
}
