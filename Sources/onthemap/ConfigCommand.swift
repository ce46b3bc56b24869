import ArgumentParser
import Foundation
import MapPicture
import OnTheMapConfig
import SafeText
import TerminalNCurses
import TerminalUI
import WorldMap

/// `onthemap config`: the effective settings and where each came from (flag, environment,
/// settings file with its line, default). Takes the same flags as the app, to show what they change.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the effective settings and where each came from.",
        discussion: """
            Precedence, highest first: flags, environment (ONTHEMAP_SERVER, ONTHEMAP_DIALECT, \
            ONTHEMAP_GEOCODER, ONTHEMAP_THEME, ONTHEMAP_PRECISION, ONTHEMAP_GRAPHICS, ACCESSIBLE), the settings file \
            ($XDG_CONFIG_HOME/onthemap/config.toml, else ~/.config/onthemap/config.toml), defaults. \
            Problems in the file are printed on stderr with their line; the rest still applies.
            """)

    @OptionGroup var serverOptions: ServerOptions
    @OptionGroup var geocoderOptions: GeocoderOptions
    @OptionGroup var display: DisplayOptions

    func run() throws {
        let settings = AppSettings.resolve(server: serverOptions, geocoder: geocoderOptions, display: display)
        let found = Self.detect(settings)
        FileHandle.standardOutput.write(Data(Self.text(settings, graphics: found.graphics, theme: found.theme).utf8))
    }

    /// What the app would draw the map with here, and with which theme, and why: the terminal is
    /// asked as the app asks it, when `config` runs on one.
    static func detect(_ settings: Settings) -> (graphics: GraphicsChoice, theme: (name: Theme.Name, reason: String)) {
        let setting = settings.graphics.value
        let environment = ProcessInfo.processInfo.environment
        let askBackground = settings.theme.value.asksBackground(environment)
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            var theme = settings.theme.value.choose(background: nil, environment: environment)
            if askBackground, (environment["COLORFGBG"] ?? "").isEmpty {
                theme.reason = "not run on a terminal: the app asks the terminal it runs on for its background"
            }
            if settings.accessible.value { return (GraphicsChoice(nil, reason: "accessible mode: the map in words"), theme) }
            if setting == .auto, GraphicsDetection.reasonNotToAsk(environment) == nil {
                return (GraphicsChoice(nil, reason: "not run on a terminal: the app asks the terminal it runs on"), theme)
            }
            return (GraphicsDetection.choose(setting: setting, environment: environment, database: nil, answer: nil), theme)
        }
        let detection = GraphicsDetection.detect(
            setting: settings.accessible.value ? .off : setting, environment: environment, background: askBackground)
        let theme = settings.theme.value.choose(background: detection.answer?.background, environment: environment)
        let graphics =
            settings.accessible.value ? GraphicsChoice(nil, reason: "accessible mode: the map in words") : detection.choice
        return (graphics, theme)
    }

    /// `name  value  (source)` lines, values cleaned: the file may hold anything. `graphics`:
    /// what the map is drawn with here; `mapData`: the detailed map's file, or why there is none.
    static func text(
        _ settings: Settings, graphics: GraphicsChoice? = nil, theme: (name: Theme.Name, reason: String)? = nil,
        mapData: (path: String?, note: String?) = (DetailMap.shared?.path, DetailMap.note)
    ) -> String {
        let file = settings.file
        var rows: [(String, String, String)] = [
            ("file", file.path, file.exists ? "(found)" : "(not found)"),
            ("server", settings.server.value ?? "built-in", "(\(settings.server.source))"),
            ("dialect", settings.dialect.value, "(\(settings.dialect.source))"),
            ("geocoder", settings.geocoder.value, "(\(settings.geocoder.source))"),
            ("precision", settings.precision.value, "(\(settings.precision.source))"),
            ("theme", settings.theme.value.rawValue, "(\(settings.theme.source))"),
        ]
        if let theme, !(settings.theme.value.rawValue == theme.name.rawValue) {
            rows.append(("theme drawn", theme.name.rawValue, "(\(theme.reason))"))
        }
        rows += [
            ("mouse", settings.mouse.value ? "true" : "false", "(\(settings.mouse.source))"),
            ("ascii", settings.ascii.value ? "true" : "false", "(\(settings.ascii.source))"),
            ("accessible", settings.accessible.value ? "true" : "false", "(\(settings.accessible.source))"),
            ("graphics", settings.graphics.value.rawValue, "(\(settings.graphics.source))"),
        ]
        let term = ProcessInfo.processInfo.environment["TERM"]
        if let type = NCursesBackend.terminalType(term) {
            rows.append(("terminfo", type.name, "(\(type.note ?? "$TERM"))"))
        } else {
            rows.append(("terminfo", "none", "(no entry for TERM, xterm-256color, xterm or vt100: the app cannot start)"))
        }
        if let graphics {
            rows.append(("map drawn with", graphics.imageProtocol?.rawValue ?? "braille", "(\(graphics.reason))"))
        }
        if let path = mapData.path {
            rows.append(("map data", path, "(close views: GSHHG shores and lakes, WDBII rivers and borders)"))
        } else {
            rows.append(("map data", "none", "(\(mapData.note ?? "No detailed map data; showing the built-in map."))"))
        }
        for override in settings.keyOverrides {
            rows.append(
                ("keys.\(override.action.rawValue)", override.keys.map(\.name).joined(separator: " "), "(\(override.source))"))
        }
        let nameWidth = rows.map { $0.0.count }.max() ?? 0
        let valueWidth = rows.dropFirst().map { SafeText.clean($0.1).count }.max() ?? 0
        return rows.map { name, value, source in
            let shown = SafeText.clean(value)
            let pad = { (text: String, width: Int) in text + String(repeating: " ", count: max(0, width - text.count)) }
            return pad(name, nameWidth) + "  " + pad(shown, valueWidth) + "  " + SafeText.clean(source)
        }.joined(separator: "\n") + "\n"
    }
}
