import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Whether `onthemap list` writes its links as OSC 8 hyperlinks. Off by default, because no
/// terminal can be asked whether it understands them and one that does not may show the
/// sequence's tail. `--hyperlinks` / `--no-hyperlinks` win; otherwise the config file's
/// `hyperlinks` key (`configured`) applies, and only when stdout is a terminal that is not `dumb`.
enum HyperlinkSetting {
    /// The config file's `hyperlinks = true|false`: the hook for the config loader (issue 13,
    /// deliver 2). nil while no config says anything.
    nonisolated(unsafe) static var configured: Bool? = nil

    static func effective(
        flag: Bool?, environment: [String: String], stdoutIsTerminal: Bool = isatty(STDOUT_FILENO) == 1
    ) -> Bool {
        if let flag { return flag }
        guard configured == true, stdoutIsTerminal else { return false }
        return environment["TERM"].map { !$0.isEmpty && $0 != "dumb" } ?? false
    }
}
