import APIClient
import ArgumentParser
import Foundation
import OnTheMapModels
import SafeText
import ViewModels

/// `onthemap open <objectId|name>`: opens a row's link in the browser through `LinkPolicy` and
/// `LinkOpener` ($BROWSER, else xdg-open; the URL as one argument, never through a shell).
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the link of a location, by objectId or by name (the newest match).",
        discussion: """
            Exit status: 0 opened, 1 no such row or no browser (the link is printed), 4 the link is \
            refused (not http or https).
            """)

    @OptionGroup var serverOptions: ServerOptions
    @Argument(help: "An objectId, or a name (\"Ada Lovelace\", case-insensitive).") var target: String
    @Option(help: "How many recent locations to search.") var limit = 1000

    func run() async throws {
        let list = try await serverOptions.recentLocations(count: limit)
        guard let row = Self.match(target, in: list.locations) else {
            throw ExitFailure(.failure, "no location with objectId or name “\(target)” among the \(limit) most recent.")
        }
        let url: String
        switch LinkPolicy.decide(row.mediaURL) {
        case .open(let safe): url = safe
        case .refuse(let reason): throw ExitFailure(.refused, reason)
        }
        switch LinkOpener().open(url) {
        case .started(let program):
            print("Opened \(url) with \(SafeText.clean(program)).")
        case .noOpener(let reason):
            print(url)
            throw ExitFailure(.failure, reason)
        }
    }

    /// The row whose objectId is `target`, else the newest whose full name matches it
    /// (case-insensitive, after cleaning).
    static func match(_ target: String, in rows: [StudentInformation]) -> StudentInformation? {
        if let exact = rows.first(where: { $0.objectId == target }) { return exact }
        let wanted = target.trimmingCharacters(in: .whitespaces).lowercased()
        return rows.first { row in
            SafeText.clean("\(row.firstName) \(row.lastName)").trimmingCharacters(in: .whitespaces).lowercased() == wanted
        }
    }
}
