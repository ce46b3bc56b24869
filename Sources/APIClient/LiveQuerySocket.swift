import BoundedHTTP
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A Parse LiveQuery connection (`ws://host:port/`, or `wss://` for an `https://` server): a
/// WebSocket client over a plain socket or BoundedHTTP's `TLSStream`.
///
/// Why not `URLSessionWebSocketTask`: on Linux it runs on the system's libcurl, and Debian 12's
/// libcurl 7.88 is built without WebSockets (the task fails at once with "WebSockets not supported
/// by libcurl", checked on this machine). hummingbird-websocket's client would bring NIOSSL and
/// BoringSSL into `onthemap` (Architecture.md keeps them out), so this is RFC 6455 by hand; for
/// `wss://` the TLS connection is libcurl's (CONNECT_ONLY), loaded only when one is made.
///
/// Blocking calls: run them off the cooperative pool (BoundedHTTP's `onThreadOfItsOwn`).
public final class LiveQuerySocket: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// What the frames travel on.
    private enum Link {
        case plain(Int32)
        case tls(TLSStream)
    }

    private let link: Link
    /// How long one write may wait for room (the plain socket's is its SO_SNDTIMEO).
    private let writeTimeout: Duration
    private var buffer: [UInt8] = []
    private let writeLock = NSLock()
    /// The largest frame read; a larger one ends the connection (`receive` returns nil).
    public var maxMessageBytes = 16 << 20
    /// Pings come every 10 s; three missed intervals mean the server is gone.
    private static let silenceLimit: Duration = .seconds(35)

    /// Connects to the LiveQuery socket of the server at `baseURL` and completes the upgrade.
    /// - Parameter caFile: for `https://`, a CA bundle to trust instead of the system's (tests).
    public init(baseURL: URL, timeout: TimeInterval = 15, caFile: String? = nil) throws(Failure) {
        guard let scheme = baseURL.scheme, ["http", "ws", "https", "wss"].contains(scheme), let host = baseURL.host
        else {
            throw Failure(description: "live updates need an http:// or https:// server")
        }
        writeTimeout = .seconds(timeout)
        let secure = scheme == "https" || scheme == "wss"
        let port = baseURL.port ?? (secure ? 443 : 80)
        // An IPv6 literal is written in brackets in a URL and in Host.
        let authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        if secure {
            guard let url = URL(string: "https://\(authority)/") else {
                throw Failure(description: "cannot connect to \(authority)")
            }
            do {
                link = .tls(try TLSStream(url: url, deadline: .seconds(timeout), caFile: caFile))
            } catch .insecure(let words) {
                throw Failure(description: "no secure connection to \(authority) (\(words))")
            } catch .transport(let words) {
                throw Failure(description: "cannot connect to \(authority) (\(words))")
            } catch {
                throw Failure(description: "cannot connect to \(authority) in \(Int(timeout)) s")
            }
        } else {
            link = .plain(try Self.connect(host: host, port: port, timeout: timeout))
        }
        var keyBytes = [UInt8](repeating: 0, count: 16)
        for index in keyBytes.indices { keyBytes[index] = UInt8.random(in: 0...255) }
        let key = Data(keyBytes).base64EncodedString()
        let request =
            "GET / HTTP/1.1\r\nHost: \(authority)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        guard write(Array(request.utf8)) else { throw Failure(description: "the server closed the connection") }
        while true {
            if let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                let statusLine = head.prefix { $0 != "\r" }
                buffer.removeSubrange(..<end.upperBound)
                guard statusLine.hasPrefix("HTTP/1.1 101") else {
                    throw Failure(description: "the server has no live updates (\(statusLine.prefix(40)))")
                }
                // A 101 that does not answer this key is not a WebSocket for this client.
                guard WebSocketAccept.header("Sec-WebSocket-Accept", in: head) == WebSocketAccept.expected(forKey: key),
                    WebSocketAccept.header("Upgrade", in: head)?.lowercased() == "websocket"
                else {
                    throw Failure(description: "the server's answer to the upgrade is not a WebSocket's")
                }
                return
            }
            guard buffer.count < 16_384, fill() else { throw Failure(description: "no answer to the upgrade") }
        }
    }

    /// A plain TCP connection to `host`'s first address, with `timeout` for the connect and each
    /// write, and `silenceLimit` for each read.
    private static func connect(host: String, port: Int, timeout: TimeInterval) throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw Failure(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(list) }
        let descriptor = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        guard Glibc.connect(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            Glibc.close(descriptor)
            throw Failure(description: "cannot connect to \(host):\(port)")
        }
        var readWait = timeval(tv_sec: Int(silenceLimit.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &readWait, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    deinit {
        if case .plain(let descriptor) = link { Glibc.close(descriptor) }
    }

    /// Sends one text message; `false` once the connection is gone.
    @discardableResult
    public func send(_ text: String) -> Bool { sendFrame(opcode: 0x1, Array(text.utf8)) }

    /// The next text message; `nil` when the connection ended (closed, reset, or silent too long).
    /// Pings are answered here.
    public func receive() -> String? {
        while true {
            guard let (opcode, payload) = readFrame() else { return nil }
            switch opcode {
            case 0x1: return String(decoding: payload, as: UTF8.self)
            case 0x8:
                _ = sendFrame(opcode: 0x8, Array(payload.prefix(2)))
                return nil
            case 0x9: _ = sendFrame(opcode: 0xA, payload)
            default: continue
            }
        }
    }

    /// Ends the connection (a blocked `receive` returns `nil`).
    public func close() {
        switch link {
        case .plain(let descriptor): _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        case .tls(let stream): stream.shutdown()
        }
    }

    private func sendFrame(opcode: UInt8, _ payload: [UInt8]) -> Bool {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return writeLock.withLock { write(frame) }
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        switch link {
        case .plain(let descriptor):
            return bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                == bytes.count
        case .tls(let stream):
            return stream.write(bytes, timeout: writeTimeout)
        }
    }

    /// One whole frame (fragmented messages are not sent by this server); at most `maxMessageBytes`.
    private func readFrame() -> (UInt8, [UInt8])? {
        func need(_ count: Int) -> Bool {
            while buffer.count < count { guard fill() else { return false } }
            return true
        }
        guard need(2) else { return nil }
        let opcode = buffer[0] & 0x0F
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard need(4) else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard need(10) else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard length <= maxMessageBytes, need(offset + length) else { return nil }
        let payload = Array(buffer[offset..<(offset + length)])
        buffer.removeSubrange(..<(offset + length))
        return (opcode, payload)
    }

    private func fill() -> Bool {
        switch link {
        case .plain(let descriptor):
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            buffer += chunk[..<count]
        case .tls(let stream):
            guard let chunk = stream.read(atMost: 65536, timeout: Self.silenceLimit) else { return false }
            buffer += chunk
        }
        return true
    }
}

/// The client's messages of the Parse LiveQuery protocol (Docs/API.md, "LiveQuery").
public enum LiveQueryMessages {
    public static func connect(applicationId: String?, restAPIKey: String?, sessionToken: String?) -> String {
        var object: [String: Any] = ["op": "connect", "applicationId": applicationId ?? "onthemap"]
        if let restAPIKey { object["restAPIKey"] = restAPIKey }
        if let sessionToken { object["sessionToken"] = sessionToken }
        return json(object)
    }

    /// Subscribes to StudentLocation rows matching `whereJSON` (a JSON object; `nil`: every row).
    public static func subscribe(requestId: Int, whereJSON: String?) throws -> String {
        var query: [String: Any] = ["className": "StudentLocation"]
        if let whereJSON {
            query["where"] = try JSONSerialization.jsonObject(with: Data(whereJSON.utf8))
        } else {
            query["where"] = [String: Any]()
        }
        return json(["op": "subscribe", "requestId": requestId, "query": query])
    }

    private static func json(_ object: [String: Any]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }
}
