import ArgumentParser

/// `onthemap`: where your classmates study, in the terminal.
@main
struct OnTheMap: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onthemap",
        abstract: "See where your classmates study, open their links, and post your own place.",
        discussion: """
            With no --server (and no ONTHEMAP_SERVER), onthemap starts its own server on 127.0.0.1 \
            with a demo class, so everything works offline.
            """,
        subcommands: [
            TUICommand.self, ListCommand.self, MapCommand.self, GeocodeCommand.self, LoginCommand.self, WhoamiCommand.self,
            PostCommand.self, OpenCommand.self, LogoutCommand.self, ConfigCommand.self, WatchCommand.self,
        ],
        defaultSubcommand: TUICommand.self)

    /// `AsyncParsableCommand.main`, with every error printed by `Diagnostics` (cleaned) instead of
    /// by argument-parser directly.
    static func main() async {
        do {
            var command = try await asyncParseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            Diagnostics.exit(with: error, command: self)
        }
    }
}
