import AppTestSupport
import Foundation
import OnTheMapConfig
import Testing

@testable import TerminalUI

/// Precedence (flags > environment > file > defaults) and what a broken file does.
struct SettingsTests {
    static let path = "/home/u/.config/onthemap/config.toml"

    func file(_ text: String) -> ConfigFile { ConfigFile(parsing: text, path: Self.path) }

    @Test func defaultsWithoutAFile() {
        let settings = Settings.resolve(
            flags: SettingsFlags(), environment: [:], file: ConfigFile.load(path: "/nonexistent/config.toml"))
        #expect(settings.server.value == nil && settings.server.source == .defaultValue)
        #expect(settings.dialect.value == "v1" && settings.geocoder.value == "offline")
        #expect(settings.theme.value == .auto && settings.mouse.value && !settings.ascii.value)
        #expect(settings.keys == .standard && settings.problems.isEmpty && !settings.file.exists)
        #expect(settings.precision == Sourced("city", from: .defaultValue))
    }

    /// `precision`: the file, then ONTHEMAP_PRECISION, then `--precision`; a value that is
    /// neither city nor exact is reported and the next source down decides.
    @Test func precisionFromEachSource() {
        let text = "precision = \"exact\"\n"
        #expect(
            Settings.resolve(flags: SettingsFlags(), environment: [:], file: file(text)).precision
                == Sourced("exact", from: .file(path: Self.path, line: 1)))
        let environment = ["ONTHEMAP_PRECISION": "city"]
        #expect(
            Settings.resolve(flags: SettingsFlags(), environment: environment, file: file(text)).precision
                == Sourced("city", from: .environment("ONTHEMAP_PRECISION")))
        #expect(
            Settings.resolve(flags: SettingsFlags(precision: "exact"), environment: environment, file: file(text))
                .precision == Sourced("exact", from: .flag("--precision")))
        let street = Settings.resolve(flags: SettingsFlags(), environment: [:], file: file("precision = \"street\"\n"))
        #expect(street.precision == Sourced("city", from: .defaultValue))
        #expect(street.problems == [Self.path + ":1: precision must be city or exact, not \"street\"; ignored"])
    }

    @Test func fileBeatsDefaultsEnvironmentBeatsFileFlagBeatsAll() {
        let text = """
            # my class
            server = "https://file.example"
            theme = "light"
            dialect = "legacy"
            mouse = false
            ascii = true
            """
        let fromFile = Settings.resolve(flags: SettingsFlags(), environment: [:], file: file(text))
        #expect(fromFile.server == Sourced<String?>("https://file.example", from: .file(path: Self.path, line: 2)))
        #expect(fromFile.theme == Sourced(.light, from: .file(path: Self.path, line: 3)))
        #expect(fromFile.dialect.value == "legacy" && !fromFile.mouse.value && fromFile.ascii.value)
        #expect(fromFile.problems.isEmpty)

        let environment = ["ONTHEMAP_SERVER": "http://env.example:8080", "ONTHEMAP_THEME": "mono"]
        let fromEnvironment = Settings.resolve(flags: SettingsFlags(), environment: environment, file: file(text))
        #expect(fromEnvironment.server == Sourced<String?>("http://env.example:8080", from: .environment("ONTHEMAP_SERVER")))
        #expect(fromEnvironment.theme == Sourced(.mono, from: .environment("ONTHEMAP_THEME")))
        #expect(fromEnvironment.dialect.source == .file(path: Self.path, line: 4))

        let flags = SettingsFlags(server: "https://flag.example", theme: "dark", mouse: true, ascii: false)
        let fromFlags = Settings.resolve(flags: flags, environment: environment, file: file(text))
        #expect(fromFlags.server == Sourced<String?>("https://flag.example", from: .flag("--server")))
        #expect(fromFlags.theme == Sourced(.dark, from: .flag("--theme")))
        #expect(fromFlags.mouse == Sourced(true, from: .flag("--mouse")))
        #expect(fromFlags.ascii == Sourced(false, from: .flag("--no-ascii")))
    }

    @Test func accessibleComesFromTheFlagTheEnvironmentOrTheFile() {
        let off = Settings.resolve(flags: SettingsFlags(), environment: [:], file: file(""))
        #expect(off.accessible == Sourced(false, from: .defaultValue))
        let fromFile = Settings.resolve(flags: SettingsFlags(), environment: [:], file: file("accessible = true\n"))
        #expect(fromFile.accessible == Sourced(true, from: .file(path: Self.path, line: 1)))
        #expect(fromFile.problems.isEmpty)
        let fromEnvironment = Settings.resolve(
            flags: SettingsFlags(), environment: ["ACCESSIBLE": "1"], file: file("accessible = false\n"))
        #expect(fromEnvironment.accessible == Sourced(true, from: .environment("ACCESSIBLE")))
        let zero = Settings.resolve(flags: SettingsFlags(), environment: ["ACCESSIBLE": "0"], file: file(""))
        #expect(zero.accessible == Sourced(false, from: .environment("ACCESSIBLE")))
        let fromFlag = Settings.resolve(
            flags: SettingsFlags(accessible: true), environment: ["ACCESSIBLE": "0"], file: file(""))
        #expect(fromFlag.accessible == Sourced(true, from: .flag("--accessible")))
    }

    @Test func aSyntaxErrorNamesItsLineAndLeavesTheDefaults() {
        let text = "theme = \"light\"\nserver = \"https://a.example\"\nmouse = maybe\n"
        let settings = Settings.resolve(flags: SettingsFlags(), environment: [:], file: file(text))
        #expect(settings.problems.count == 1)
        #expect(settings.problems.first?.hasPrefix(Self.path + ":3: ") == true)
        #expect(settings.problems.first?.hasSuffix("the whole file is ignored") == true)
        #expect(settings.theme == Sourced(.auto, from: .defaultValue) && settings.server.value == nil)
    }

    @Test func aBadValueIsReportedOnItsLineAndTheRestApplies() {
        let text = "\nserver = \"ftp://x\"\ntheme = \"pink\"\ngeocoder = \"photon\"\ncolour = \"red\"\nmouse = \"no\"\n"
        let settings = Settings.resolve(flags: SettingsFlags(), environment: ["ONTHEMAP_DIALECT": "v9"], file: file(text))
        #expect(settings.geocoder == Sourced("photon", from: .file(path: Self.path, line: 4)))
        #expect(settings.server.value == nil && settings.theme.value == .auto && settings.dialect.value == "v1")
        let expected = [
            "\(Self.path):2: server must be an http:// or https:// URL, not \"ftp://x\"; ignored",
            "\(Self.path):3: theme must be auto, dark, light or mono, not \"pink\"; ignored",
            "\(Self.path):5: unknown setting \"colour\" (known: server, dialect, geocoder, theme, mouse, ascii, "
                + "accessible, precision, graphics, [keys])",
            "\(Self.path):6: mouse must be true or false",
            "environment ONTHEMAP_DIALECT: dialect must be v1 or legacy, not \"v9\"; ignored",
        ]
        #expect(Set(settings.problems) == Set(expected))
    }

    @Test func keyOverridesGoThroughTheKeyTable() {
        let text = """
            [keys]
            refresh = "R"
            "openLink" = ["o", "enter"]
            teleport = "t"
            help = "F1"
            post = "q"
            """
        let settings = Settings.resolve(flags: SettingsFlags(), environment: [:], file: file(text))
        #expect(settings.keys == KeyMap.standard.rebinding(.refresh, to: [.character("R")])
            .rebinding(.openLink, to: [.character("o"), .enter]).rebinding(.post, to: [.character("q")]))
        #expect(settings.keyOverrides.map(\.action) == [.refresh, .openLink, .post])
        #expect(settings.keyOverrides.first?.source == .file(path: Self.path, line: 2))
        #expect(settings.problems.contains("\(Self.path):4: keys: unknown action \"teleport\" (the actions are listed in Docs/TerminalApp.md)"))
        #expect(settings.problems.contains { $0.hasPrefix("\(Self.path):5: keys.help: unknown key \"F1\"") })
        #expect(settings.problems.contains { $0.hasPrefix("\(Self.path):6: keys.post: q is also the key of quit") })
    }

    @Test func theFileIsWhereXDGSays() {
        #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"]) == "/x/cfg/onthemap/config.toml")
        #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/home/u"]) == Self.path)
        #expect(ConfigFile.defaultPath(environment: ["HOME": "/home/u"]) == Self.path)
    }
}
