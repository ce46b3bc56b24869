import Foundation
import HTTPTypes
import Hummingbird

#if canImport(Glibc)
import Glibc
#endif

/// Client addresses as the throttle counts them.
package enum ClientAddress {
    /// The subject an address is counted as: an IPv4 address as it is, an IPv6 address by its
    /// /64 (one customer's network: they get 2^64 addresses to rotate through), an IPv4-mapped
    /// IPv6 address as its IPv4, anything else (cleaned, cut to 64 bytes) as it is.
    package static func subject(_ address: String?) -> String {
        guard let address, !address.isEmpty else { return "unknown" }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else {
            return String(address.unicodeScalars.filter { $0.isASCII && $0.value > 32 && $0.value < 127 }.prefix(64))
        }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    /// Whether an address is loopback (127.0.0.0/8, ::1, or IPv4-mapped 127.x).
    package static func isLoopback(_ address: String) -> Bool {
        let lowered = address.lowercased()
        if lowered == "::1" { return true }
        let parts = lowered.replacingOccurrences(of: "::ffff:", with: "").split(separator: ".").compactMap { Int($0) }
        return parts.count == 4 && parts[0] == 127
    }

    /// Whether a peer is loopback or a private network (RFC 1918, unique-local, link-local):
    /// where a reverse proxy usually sits.
    static func isLoopbackOrPrivate(_ address: String) -> Bool {
        let lowered = address.lowercased()
        if lowered == "::1" || lowered.hasPrefix("fc") || lowered.hasPrefix("fd") || lowered.hasPrefix("fe80:") { return true }
        let parts = lowered.replacingOccurrences(of: "::ffff:", with: "").split(separator: ".").compactMap { Int($0) }
        guard parts.count == 4 else { return false }
        return parts[0] == 127 || parts[0] == 10 || (parts[0] == 172 && (16...31).contains(parts[1]))
            || (parts[0] == 192 && parts[1] == 168)
    }
}

extension AppRequestContext {
    /// The client's address: the last `X-Forwarded-For` entry when `trustProxy` (the one the
    /// proxy itself appended), else the socket's peer.
    package func clientAddress(_ request: Request, trustProxy: Bool) -> String? {
        if trustProxy, let forwarded = request.headers[values: .xForwardedFor].last {
            let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) ?? ""
            if !last.isEmpty, last.utf8.count <= 64 { return last }
        }
        return remoteAddress?.ipAddress
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
