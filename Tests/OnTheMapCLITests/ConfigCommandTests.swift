import Foundation
import OnTheMapConfig
import Testing

@testable import onthemap

/// `onthemap config` and the settings file as a user meets them: the real binary, a real file
/// under a temporary XDG_CONFIG_HOME.
@Suite struct ConfigCommandTests {
    typealias Run = ListCommandTests.Run

    /// Runs `onthemap` with a settings file holding `file` (none when nil) and `environment` added.
    static func run(_ arguments: [String], file: String?, environment extra: [String: String] = [:]) async throws -> (Run, String) {
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("config/onthemap")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("config.toml").path
        if let file { try file.write(toFile: path, atomically: true, encoding: .utf8) }
        return (try await ListCommandTests.run(arguments, dataHome: home, environment: extra), path)
    }

    /// The output's lines with runs of spaces as one (the columns' widths vary with the values).
    static func words(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
    }

    @Test func printsEachSettingWithItsSource() async throws {
        let file = """
            server = "https://class.example"
            theme = "light"
            geocoder = "photon"
            mouse = false

            [keys]
            refresh = "R"
            """
        let mapData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("MapData/detail.otmd").path
        let (run, path) = try await Self.run(
            ["config", "--theme", "mono", "--ascii"], file: file,
            environment: [
                "ONTHEMAP_GEOCODER": "nominatim", "TMUX": "", "STY": "", "TERM": "xterm-256color", "ONTHEMAP_MAP_DATA": mapData,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let lines = Self.words(run.stdout)
        #expect(
            lines == [
                "file \(path) (found)",
                "server https://class.example (file \(path):1)",
                "dialect v1 (default)",
                "geocoder nominatim (environment ONTHEMAP_GEOCODER)",
                "precision city (default)",
                "theme mono (flag --theme)",
                "mouse false (file \(path):4)",
                "ascii true (flag --ascii)",
                "accessible false (default)",
                "graphics auto (default)",
                "terminfo xterm-256color ($TERM)",
                "map drawn with braille (not run on a terminal: the app asks the terminal it runs on)",
                "map data \(mapData) (close views: GSHHG shores and lakes, WDBII rivers and borders)",
                "keys.refresh R (file \(path):7)",
            ])
    }

    /// A `$TERM` this machine has no terminfo entry for (a new terminal's, or one brought over
    /// ssh) is drawn as the nearest entry that exists, and said so, with TERM's text cleaned.
    @Test func aTermWithoutTerminfoFallsBackAndSaysSo() async throws {
        let (unknown, _) = try await Self.run(["config"], file: nil, environment: ["TERM": "xterm-\u{1B}[31mnowhere"])
        #expect(unknown.status == 0, "\(unknown.stderr)")
        #expect(
            Self.words(unknown.stdout).contains(
                "terminfo xterm-256color (no terminfo for TERM=xterm-[31mnowhere: drawn as xterm-256color (ncurses-term has more))"),
            "\(unknown.stdout)")
        let (unset, _) = try await Self.run(["config"], file: nil, environment: ["TERM": ""])
        #expect(Self.words(unset.stdout).contains { $0.hasPrefix("terminfo xterm-256color (TERM is not set: drawn as") })
        let (known, _) = try await Self.run(["config"], file: nil, environment: ["TERM": "vt100"])
        #expect(Self.words(known.stdout).contains("terminfo vt100 ($TERM)"), "\(known.stdout)")
    }

    /// `graphics` from each source, and what the map would be drawn with: a forced protocol as
    /// asked, `auto` inside tmux Braille without asking, never a picture in accessible mode.
    @Test func graphicsFromEachSourceAndWhatTheMapIsDrawnWith() async throws {
        let plain = ["TMUX": "", "STY": "", "TERM": "xterm-256color"]
        let (flag, _) = try await Self.run(["config", "--graphics", "sixel"], file: nil, environment: plain)
        #expect(Self.words(flag.stdout).contains("graphics sixel (flag --graphics)"))
        #expect(Self.words(flag.stdout).contains("map drawn with sixel (sixel, as asked)"), "\(flag.stdout)")
        let (environment, _) = try await Self.run(
            ["config"], file: "graphics = \"off\"\n", environment: plain.merging(["ONTHEMAP_GRAPHICS": "kitty"]) { $1 })
        #expect(Self.words(environment.stdout).contains("graphics kitty (environment ONTHEMAP_GRAPHICS)"))
        let (file, _) = try await Self.run(["config"], file: "graphics = \"off\"\n", environment: plain)
        #expect(Self.words(file.stdout).contains { $0.hasPrefix("graphics off (file ") && $0.hasSuffix(":1)") })
        #expect(Self.words(file.stdout).contains("map drawn with braille (graphics = off: Braille)"))
        let (tmux, _) = try await Self.run(["config"], file: nil, environment: ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"])
        #expect(Self.words(tmux.stdout).contains { $0.hasPrefix("map drawn with braille (inside tmux") }, "\(tmux.stdout)")
        let (accessible, _) = try await Self.run(["config", "--graphics", "kitty", "--accessible"], file: nil, environment: plain)
        #expect(Self.words(accessible.stdout).contains("map drawn with braille (accessible mode: the map in words)"))
        let (bogus, _) = try await Self.run(["config"], file: nil, environment: plain.merging(["ONTHEMAP_GRAPHICS": "\u{1B}[31mneon"]) { $1 })
        #expect(bogus.status == 0 && bogus.stderr.contains("ONTHEMAP_GRAPHICS") && !bogus.stderr.contains("\u{1B}"))
        #expect(Self.words(bogus.stdout).contains("graphics auto (default)"))
        let (refused, _) = try await Self.run(["config", "--graphics", "neon"], file: nil, environment: plain)
        #expect(refused.status != 0 && refused.stderr.contains("auto"))
    }

    @Test func aMalformedFileNamesItsLineCleanedAndTheCommandRunsOnDefaults() async throws {
        // An escape sequence in the file must not reach the terminal: the message is cleaned.
        let file = "theme = \"light\"\n\ntheme \u{1B}]52;c;aGk=\u{07} = \"dark\"\n"
        // NO_COLOR set (as swift test sets it when its output is no terminal) would make it mono.
        let (run, path) = try await Self.run(["config"], file: file, environment: ["NO_COLOR": "", "COLORFGBG": ""])
        #expect(run.status == 0, "\(run.stderr)")
        let stderr = run.stderr.split(separator: "\n")
        #expect(stderr.count == 1)
        #expect(stderr.first?.hasPrefix("onthemap: \(path):3: ") == true)
        #expect(stderr.first?.hasSuffix("the whole file is ignored") == true)
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{07}"))
        let lines = Self.words(run.stdout)
        #expect(lines.contains("theme auto (default)") && lines.contains("server built-in (default)"), "\(run.stdout)")
        #expect(
            lines.contains("theme drawn dark (not run on a terminal: the app asks the terminal it runs on for its background)"),
            "\(run.stdout)")

        // The commands go on without the file: `list` on the built-in server.
        let (list, _) = try await Self.run(["list", "--limit", "10", "--format", "csv"], file: file)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.split(whereSeparator: \.isNewline).count > 2)  // CSV lines end in CRLF
        #expect(list.stderr.contains("/config.toml:3: Error while parsing"), "\(list.stderr)")
    }

    @Test func aServerInTheFileIsUsedAndTheFlagBeatsIt() async throws {
        // Port 9 on loopback: nothing listens, so the error names the server that was tried.
        let file = "server = \"http://127.0.0.1:9\"\n"
        let (fromFile, _) = try await Self.run(["list", "--limit", "1"], file: file)
        #expect(fromFile.status == 1 && fromFile.stderr.contains("127.0.0.1:9"), "\(fromFile.stderr)")
        let (fromEnvironment, _) = try await Self.run(
            ["list", "--limit", "1"], file: file, environment: ["ONTHEMAP_SERVER": "http://127.0.0.1:7"])
        #expect(fromEnvironment.status == 1 && fromEnvironment.stderr.contains("127.0.0.1:7"), "\(fromEnvironment.stderr)")
        let (fromFlag, _) = try await Self.run(
            ["config", "--server", "http://127.0.0.1:5"], file: file, environment: ["ONTHEMAP_SERVER": "http://127.0.0.1:7"])
        #expect(fromFlag.stdout.contains("http://127.0.0.1:5") && fromFlag.stdout.contains("(flag --server)"))
    }
}

/// Without the detailed map's file, `onthemap config` says so in one line (the map then draws
/// Natural Earth at every zoom; the app says it once in a toast).
@Suite struct ConfigMapDataTests {
    @Test func aMissingDetailedMapIsOneLine() {
        let settings = Settings.resolve(
            flags: SettingsFlags(), environment: [:], file: ConfigFile(parsing: "", path: "/nowhere/config.toml"))
        let note = "No detailed map data found (looked in /a, /b); showing the built-in map."
        let lines = ConfigCommand.text(settings, mapData: (nil, note)).split(separator: "\n")
        let mapData = lines.filter { $0.hasPrefix("map data") }
        #expect(mapData.count == 1)
        #expect(ConfigCommandTests.words(String(mapData.first ?? "")) == ["map data none (\(note))"])
        let found = ConfigCommand.text(settings, mapData: ("/usr/share/onthemap/detail.otmd", nil))
        #expect(found.contains("/usr/share/onthemap/detail.otmd"))
    }
}
