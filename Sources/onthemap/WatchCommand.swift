import APIClient
import ArgumentParser
import Foundation
import OnTheMapModels
import SafeText

/// `onthemap watch`: one line per LiveQuery event of the class, reconnecting until interrupted.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print each new, changed or deleted location as it happens (LiveQuery).")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup var serverOptions: ServerOptions
    @Option(help: "text or json (one event object per line).") var format: Format = .text
    @Option(name: .customLong("where"), help: #"Only rows matching this Parse where clause (JSON), e.g. '{"mapString":"Lisbon"}'."#)
    var whereJSON: String?

    func validate() throws {
        if let whereJSON {
            guard let object = try? JSONSerialization.jsonObject(with: Data(whereJSON.utf8)), object is [String: Any] else {
                throw ValidationError("--where must be a JSON object.")
            }
        }
    }

    func run() async throws {
        let connection = try await serverOptions.connect()
        let configuration = connection.client.configuration
        let subscribe = try LiveQueryMessages.subscribe(requestId: 1, whereJSON: whereJSON)
        let hello = LiveQueryMessages.connect(
            applicationId: configuration.parseApplicationID, restAPIKey: configuration.parseRESTAPIKey,
            sessionToken: connection.client.currentSession?.sessionID)
        var delay = 1
        while !Task.isCancelled {
            let outcome: Result<Void, LiveQuerySocket.Failure> = await LiveQuerySocket.run {
                do throws(LiveQuerySocket.Failure) {
                    let socket = try LiveQuerySocket(baseURL: configuration.baseURL)
                    socket.send(hello)
                    socket.send(subscribe)
                    while let message = socket.receive() { Self.print(message, format: format) }
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            switch outcome {
            case .success: delay = 1  // it was up; the next drop waits from 1 s again
            case .failure(let failure): Diagnostics.warn(failure.description)
            }
            Self.status("reconnecting in \(delay) s")
            try await Task.sleep(for: .seconds(delay))
            delay = min(delay * 2, 30)
        }
        await connection.close()
    }

    /// One line per event on stdout; the protocol's replies and errors on stderr.
    static func print(_ message: String, format: Format) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(message.utf8))) as? [String: Any],
            let op = object["op"] as? String
        else { return }
        switch op {
        case "create", "update", "enter", "leave", "delete":
            let line: String
            switch format {
            case .json: line = SafeText.escapingControls(inJSON: message)
            case .text:
                let row = object["object"] as? [String: Any] ?? [:]
                func field(_ name: String) -> String { SafeText.clean((row[name] as? String) ?? "") }
                let name = "\(field("firstName")) \(field("lastName"))".trimmingCharacters(in: .whitespaces)
                line = "\(op.padding(toLength: 6, withPad: " ", startingAt: 0)) \(name) — \(field("mapString")) [\(field("objectId"))]"
            }
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        case "connected": status("live")
        case "error": status("error: \(SafeText.clean((object["error"] as? String) ?? "unknown"))")
        default: break
        }
    }

    static func status(_ text: String) {
        FileHandle.standardError.write(Data("onthemap watch: \(SafeText.clean(text))\n".utf8))
    }
}
