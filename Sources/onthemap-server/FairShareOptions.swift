import ArgumentParser
import OnTheMapServer
import ServerConfig

/// `serve`'s fair-share flags (Docs/Access.md): what one account may take of the map. They do
/// not apply to `--open-writes` writers, who have no account.
struct FairShareOptions: ParsableArguments {
    @Option(help: "Locations one account may have on the map; the next POST gets 403 (code 119).")
    var maxRowsPerAccount = 5
    @Option(
        help: "Writes (POST, PUT, DELETE) one account may make per minute, all instances together; then 429 (code 155)."
    )
    var maxWritesPerMinute = 30

    func validate() throws {
        guard (1...10_000).contains(maxRowsPerAccount) else {
            throw ValidationError("--max-rows-per-account must be 1 to 10000.")
        }
        guard (1...100_000).contains(maxWritesPerMinute) else {
            throw ValidationError("--max-writes-per-minute must be 1 to 100000.")
        }
    }

    func apply(to configuration: inout ServerConfiguration) {
        configuration.maxRowsPerAccount = maxRowsPerAccount
        configuration.maxWritesPerMinute = maxWritesPerMinute
    }
}
