import APIClient
import ArgumentParser
import Foundation
import OnTheMapModels
import SafeText

/// `onthemap watch`: one line per LiveQuery event until interrupted, reconnecting with the app's
/// backoff; after a reconnect the rows posted or changed meanwhile are printed too.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print each new, changed or deleted location as it happens, until interrupted.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup var serverOptions: ServerOptions
    @Option(help: "text, or json (JSON Lines: one object per event).") var format: Format = .text
    @Option(name: .customLong("where"), help: "A Parse where clause (a JSON object), as for the REST list.")
    var whereText: String?

    func validate() throws {
        if let whereText {
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(whereText.utf8)),
                case .object = value
            else { throw ValidationError("--where must be a JSON object.") }
        }
    }

    func run() async throws {
        let whereClause = whereText.flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
        let connection = try await serverOptions.connect()
        // A stored session for this server is sent along (a subscription needs none for public rows).
        if let stored = StoredSession.load(), stored.server == serverOptions.sessionServerKey,
            !stored.isExpired(now: Date())
        {
            connection.client.resume(stored.userSession)
        }
        var known: [String: Date?]?
        var failure: String?
        for await event in connection.client.liveEvents(where: whereClause) {
            switch event {
            case .live:
                Diagnostics.note("live: watching \(serverOptions.serverLabel)")
            case .reconnecting(let seconds, let reason):
                Diagnostics.note("\(SafeText.clean(reason)); reconnecting in \(Int(seconds.rounded(.up))) s")
            case .refused(let message):
                failure = message
            case .firstPage(let rows):
                // The first time: what is there already. After a reconnect: what changed meanwhile.
                if let seen = known {
                    for row in rows.reversed() where seen[row.objectId] != row.updatedAt {
                        print(seen[row.objectId] == nil ? .create : .update, row)
                    }
                }
                var seen = known ?? [:]
                for row in rows { seen[row.objectId] = row.updatedAt }
                known = seen
            case .change(let op, let row):
                known?[row.objectId] = op.keepsRow ? row.updatedAt : nil
                print(op, row)
            }
        }
        await connection.close()
        if let failure { throw Self.fail("the server refused the subscription: \(failure)") }
    }

    private func print(_ op: LiveOp, _ row: StudentInformation) {
        FileHandle.standardOutput.write(Data((Self.line(op, row, format: format) + "\n").utf8))
    }

    /// One event as a line: JSON (`{"object":{…},"op":"create"}`, controls escaped like `list`'s
    /// JSON) or text (op, name, place, link, objectId; cleaned).
    static func line(_ op: LiveOp, _ row: StudentInformation, format: Format) -> String {
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(Event(op: op.rawValue, object: row))) ?? Data("{}".utf8)
            return SafeText.escapingControls(inJSON: String(decoding: data, as: UTF8.self))
        case .text:
            let parts = [row.fullName, row.mapString, row.mediaURL].map(SafeText.clean).filter { !$0.isEmpty }
            return op.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0) + parts.joined(separator: " · ")
                + " (\(SafeText.clean(row.objectId)))"
        }
    }

    private struct Event: Encodable {
        var op: String
        var object: StudentInformation
    }
}
