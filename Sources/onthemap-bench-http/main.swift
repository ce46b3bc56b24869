import Foundation
import Hummingbird
import Logging
import NIOCore

/// Hummingbird alone: `GET /v1/StudentLocation` answers a file's bytes from memory through
/// Hummingbird's own `Application`, one route, no middleware, no storage. `make bench-server`
/// measures it beside onthemap-server and nginx on the same bytes: what any server built on this
/// framework gets from the machine of that run, against which onthemap-server's own cost (its
/// middleware, the rule, the list cache) is read.
///
///     onthemap-bench-http PORT FILE
let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]), let bytes = FileManager.default.contents(atPath: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: onthemap-bench-http PORT FILE\n".utf8))
    exit(2)
}
let body = ByteBuffer(bytes: bytes)
let router = Router()
router.get("/v1/StudentLocation") { _, _ in
    Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body))
}
var logger = Logger(label: "onthemap-bench-http")
logger.logLevel = .warning
let application = Application(
    router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
try await application.runService()
