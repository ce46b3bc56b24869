import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whether a password sent to a server can be read on the way there: plain `http://` to a host
/// that is not this machine. Loopback — 127.0.0.0/8, ::1 (and ::ffff:127.x.y.z), `localhost` —
/// never leaves the machine, and `https://` is encrypted; everything else gets a warning.
public enum PlainHTTPWarning {
    /// The sentence to show, or nil when a password to `url` stays private.
    public static func message(for url: URL) -> String? {
        guard url.scheme?.lowercased() == "http", let host = url.host, !isLoopback(host: host) else { return nil }
        let server = url.port.map { "\(host):\($0)" } ?? host
        return "Plain http:// to \(server): your password would cross the network unencrypted. Use an https:// address."
    }

    /// True for `localhost`, 127.0.0.0/8 and ::1, written as URLs write them (IPv6 in brackets or not).
    public static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, name, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        let loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
        let mappedLoopback =
            bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        return loopback || mappedLoopback
    }
}
