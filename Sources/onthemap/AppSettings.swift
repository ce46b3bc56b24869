import Foundation
import OnTheMapConfig

/// The settings file of this run, read once, and the effective settings for the flags a command
/// was given. The file's (and the environment's) problems are printed once per run (on stderr,
/// cleaned, by `Diagnostics`), and the run goes on without the bad parts.
enum AppSettings {
    private static let file: ConfigFile = ConfigFile.load(
        path: ConfigFile.defaultPath(environment: ProcessInfo.processInfo.environment))

    /// The problems do not depend on flags, so one lazy static (initialised once, thread-safe)
    /// prints them.
    private static let reported: Void = {
        for problem in resolve(SettingsFlags()).problems { Diagnostics.warn(problem) }
    }()

    /// Flags weighed against the environment, the file and the defaults.
    static func resolve(_ flags: SettingsFlags) -> Settings {
        Settings.resolve(flags: flags, environment: ProcessInfo.processInfo.environment, file: file)
    }

    /// The effective settings for the option groups a command has.
    static func resolve(
        server: ServerOptions? = nil, geocoder: GeocoderOptions? = nil, display: DisplayOptions? = nil
    ) -> Settings {
        resolve(
            SettingsFlags(
                server: server?.server.flatMap { $0.isEmpty ? nil : $0 }, dialect: server?.dialect?.rawValue,
                geocoder: geocoder?.geocoder?.rawValue, theme: display?.theme?.rawValue, mouse: display?.mouse,
                ascii: display?.ascii, accessible: display?.accessible,
                graphics: display?.graphics?.rawValue))
    }

    /// Prints the file's and the environment's problems, the first time only.
    static func warnOnce() {
        _ = reported
    }
}
