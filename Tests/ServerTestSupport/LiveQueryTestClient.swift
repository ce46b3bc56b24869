import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A LiveQuery client for tests that speaks the documented protocol itself — a WebSocket
/// handshake and frames by hand over `RawSocket`, JSON text in and out — so a test sees exactly
/// what any Parse LiveQuery client would (not the app's client).
public final class LiveQueryTestClient: @unchecked Sendable {
    public let socket: RawSocket
    private var buffer: [UInt8] = []
    /// Close code of the server's close frame, once one arrived.
    public private(set) var closeCode: UInt16?
    /// The reason the server's close frame gave (after its code), once one arrived.
    public private(set) var closeReason: String?
    /// Whether the server ended the connection (end of stream or reset; not a read timeout).
    public private(set) var endedByPeer = false

    /// How long a read waits for a message before it gives up with `nil`. Every test waits for
    /// an event the server will send (or for the server to close); this bound only ends a test
    /// whose event never comes, so it is long enough for a loaded 2-core machine, where an event
    /// took more than 10 s to arrive beside two CPU hogs.
    public static let silenceLimit = 60

    /// Connects to `ws://127.0.0.1:<port>/` and completes the upgrade (throws unless 101).
    public init(port: Int, path: String = "/", headers: [String: String] = [:]) throws {
        socket = try RawSocket(port: port)
        var timeout = timeval(tv_sec: Self.silenceLimit, tv_usec: 0)
        setsockopt(socket.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        socket.send(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\(extra)\r\n")
        while true {
            if let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<end.upperBound)
                guard head.hasPrefix("HTTP/1.1 101") else { throw TestServerError("no upgrade: \(head)") }
                return
            }
            guard try fill() else { throw TestServerError("closed during the upgrade") }
        }
    }

    /// Sends one text frame (masked, as a client must).
    @discardableResult
    public func send(_ text: String) -> Bool { sendFrame(opcode: 0x1, Array(text.utf8)) }

    /// Sends `object` as JSON.
    @discardableResult
    public func send(json object: [String: Any]) -> Bool {
        send(String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self))
    }

    /// One frame; `masked: false` and `reservedBits` (RSV1–3 as 0x40, 0x20, 0x10) break RFC 6455
    /// on purpose.
    public func sendFrame(opcode: UInt8, _ payload: [UInt8], masked: Bool = true, reservedBits: UInt8 = 0) -> Bool {
        let maskBit: UInt8 = masked ? 0x80 : 0
        var frame: [UInt8] = [0x80 | (reservedBits & 0x70) | opcode]
        if payload.count < 126 {
            frame.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        if masked {
            let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            frame += mask
            frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        } else {
            frame += payload
        }
        return frame.withUnsafeBytes { Glibc.send(socket.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == frame.count
    }

    /// The next text message as a JSON object; `nil` when the server closed the socket (or
    /// nothing came for `silenceLimit` seconds). Pings are answered; other control frames skipped.
    public func next() async -> [String: Any]? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.readMessage()) }
        }
    }

    /// Messages until one whose `op` is `op` (returned), skipping others; `nil` if the socket ended first.
    public func next(op: String) async -> [String: Any]? {
        while let message = await next() {
            if message["op"] as? String == op { return message }
        }
        return nil
    }

    private func readMessage() -> [String: Any]? {
        // Pings answered for the whole limit are still "nothing came" (the server pings an idle
        // socket).
        let deadline = Date().addingTimeInterval(TimeInterval(Self.silenceLimit))
        while true {
            guard let (opcode, payload) = readFrame() else { return nil }
            switch opcode {
            case 0x1:
                return (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any] ?? ["unparsed": payload.count]
            case 0x8:
                closeCode = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 1005
                closeReason = String(decoding: payload.dropFirst(2), as: UTF8.self)
                return nil
            case 0x9:
                _ = sendFrame(opcode: 0xA, payload)
                if Date() > deadline { return nil }
            default:
                continue
            }
        }
    }

    private func readFrame() -> (UInt8, [UInt8])? {
        func need(_ count: Int) -> Bool {
            while buffer.count < count { guard (try? fill()) == true else { return false } }
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
        guard need(offset + length) else { return nil }
        let payload = Array(buffer[offset..<(offset + length)])
        buffer.removeSubrange(..<(offset + length))
        return (opcode, payload)
    }

    /// Reads what has arrived; `false` at the end of the stream or after the receive timeout.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(socket.descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { endedByPeer = true }
            return false
        }
        buffer += chunk[..<count]
        return true
    }
}
