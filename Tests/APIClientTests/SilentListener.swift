import Foundation
import StandIn

#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket on 127.0.0.1 that accepts connections into its backlog and never answers:
/// a server that hangs.
final class SilentListener {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let (descriptor, port) = try loopbackListener()
        self.descriptor = descriptor
        self.port = Int(port)
    }

    func close() { _ = Glibc.close(descriptor) }
}
