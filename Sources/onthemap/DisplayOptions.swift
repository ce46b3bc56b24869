import ArgumentParser
import MapPicture
import TerminalUI

extension ThemeSetting: ExpressibleByArgument {}
extension Theme.Name: ExpressibleByArgument {}

/// `--theme`, `--[no-]mouse`, `--[no-]ascii`, `--[no-]accessible`, `--graphics`: how the terminal app looks and listens. Each is
/// nil when not given, so that the settings file and the defaults decide (`AppSettings`).
struct DisplayOptions: ParsableArguments {
    @Option(
        help: "auto (the default: dark or light for the terminal's background), dark, light or mono; NO_COLOR makes it mono.")
    var theme: ThemeSetting?

    @Flag(
        inversion: .prefixedNo,
        help: "Capture the mouse (the default); --no-mouse lets the terminal select text.")
    var mouse: Bool?

    @Flag(inversion: .prefixedNo, help: "Draw with ASCII only (for fonts without Braille or box drawing).")
    var ascii: Bool?

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "For screen readers: the map in words, the cursor on the selection, nothing only by colour.",
            discussion: "Also ACCESSIBLE=1 or accessible = true in the settings file."))
    var accessible: Bool?

    @Option(
        help: ArgumentHelp(
            "The map as a picture: auto (the default: where the terminal shows images, not inside tmux or screen), kitty, sixel, iterm or off (Braille).",
            valueName: "how"))
    var graphics: GraphicsSetting?
}

extension GraphicsSetting: ExpressibleByArgument {}
extension ImageProtocol: ExpressibleByArgument {}
