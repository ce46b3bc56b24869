import ArgumentParser
import ResidentPages

#if canImport(Glibc)
    import Glibc
#endif

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
            DeleteCommand.self, AccountCommand.self, ExportCommand.self,
        ],
        defaultSubcommand: TUICommand.self)

    /// `AsyncParsableCommand.main`, with every error printed by `Diagnostics` (cleaned) instead of
    /// by argument-parser directly.
    static func main() async {
        #if canImport(Glibc)
            // Before the first `await`, while the main thread is the only one: a thread's first
            // malloc gives it an arena of its own, so the limit set any later (as it was, in the
            // app's `run()`) left two more arenas, about 4.7 MB resident (Benchmarks.md).
            limitMallocArenas(to: 1)
        #endif
        // Read once by the loader before this line and never again: 2.8 MB of the app's 40 MB
        // budget (Benchmarks.md, "Terminal app").
        if let relocations = ResidentPages.relocationTable() { ResidentPages.giveBack(relocations) }
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

#if canImport(Glibc)
    /// `mallopt(M_ARENA_MAX, count)`: one malloc arena instead of one per thread (up to 8 per
    /// core). The app's threads (the built-in server's event loops, the HTTP exchanges, the concurrency
    /// pool) allocate little, and separate arenas keep freed memory resident in each.
    /// <malloc.h> is not in the Glibc module, so `mallopt` is looked up.
    private func limitMallocArenas(to count: Int32) {
        let mArenaMax: Int32 = -8  // M_ARENA_MAX in <malloc.h>
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }  // RTLD_DEFAULT
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mArenaMax, count)
    }
#endif
