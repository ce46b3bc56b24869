import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One address to connect to, copied out of `getaddrinfo`'s list.
struct PlainHTTPAddress: Sendable {
    var family: Int32
    var socketType: Int32
    var socketProtocol: Int32
    var storage: sockaddr_storage
    var length: socklen_t

    /// The addresses of `host` (a name or an IPv4/IPv6 literal) at `port`, in `getaddrinfo`'s
    /// order; `numericOnly` answers nil at once for a name, which would need the resolver.
    static func resolve(_ host: String, port: Int, numericOnly: Bool) -> [PlainHTTPAddress]? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (numericOnly ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0 else { return nil }
        defer { freeaddrinfo(list) }
        var addresses: [PlainHTTPAddress] = []
        var entry = list
        while let info = entry {
            entry = info.pointee.ai_next
            guard let address = info.pointee.ai_addr,
                Int(info.pointee.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size
            else { continue }
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) {
                $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen)))
            }
            addresses.append(
                PlainHTTPAddress(
                    family: info.pointee.ai_family, socketType: info.pointee.ai_socktype,
                    socketProtocol: info.pointee.ai_protocol, storage: storage, length: info.pointee.ai_addrlen))
        }
        return addresses.isEmpty ? nil : addresses
    }
}

/// A name resolution on a thread of its own: `getaddrinfo` cannot be interrupted, so the exchange
/// waits for `done` with `poll`, within its deadline and its cancellation, and leaves the lookup
/// behind when it ends first (the lookup's thread then finishes alone).
final class PlainHTTPResolution: @unchecked Sendable {
    /// Readable once the result is there.
    let done: Wakeup
    private let lock = NSLock()
    private var addresses: [PlainHTTPAddress]?

    /// `lookup`: `PlainHTTPAddress.resolve`, or a stand-in in tests.
    init?(host: String, port: Int, lookup: @escaping @Sendable (String, Int) -> [PlainHTTPAddress]?) {
        guard let done = Wakeup() else { return nil }
        self.done = done
        Thread.detachNewThread { [self] in
            let found = lookup(host, port)
            lock.withLock { addresses = found }
            done.signal()
        }
    }

    /// The addresses found; nil when the name is not resolved (or not yet).
    var result: [PlainHTTPAddress]? { lock.withLock { addresses } }
}
