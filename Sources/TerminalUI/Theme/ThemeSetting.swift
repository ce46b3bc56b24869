import Foundation
import WorldMap

/// `theme = auto | dark | light | mono`: `auto` (the default) reads the terminal's background —
/// its answer to OSC 11, else `COLORFGBG` — and picks `dark` or `light` for it, so that text keeps
/// its contrast on xterm's white as on a black terminal.
public enum ThemeSetting: String, Sendable, Hashable, CaseIterable {
    case auto, dark, light, mono

    /// The theme this setting draws with, and why (`onthemap config` prints it). `background`:
    /// the terminal's answer to OSC 11, nil when it was not asked or did not answer.
    public func choose(background: RGB?, environment: [String: String]) -> (name: Theme.Name, reason: String) {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return (.mono, "NO_COLOR is set: mono") }
        switch self {
        case .dark: return (.dark, "dark, as asked")
        case .light: return (.light, "light, as asked")
        case .mono: return (.mono, "mono, as asked")
        case .auto: break
        }
        if let background {
            let light = Self.isLight(background)
            return (
                light ? .light : .dark,
                "the terminal's background \(Self.hex(background)) is \(light ? "light" : "dark") (OSC 11)"
            )
        }
        if let fgbg = environment["COLORFGBG"], let last = fgbg.split(separator: ";").last, let index = Int(last),
            (0...15).contains(index)
        {
            // rxvt's convention: the background's index in the 16 ANSI colours; 7 and 9–15 are light.
            let light = index == 7 || index >= 9
            return (light ? .light : .dark, "COLORFGBG=\(fgbg): a \(light ? "light" : "dark") background")
        }
        return (.dark, "the terminal did not tell its background: dark")
    }

    /// Whether the terminal is asked for its background: for `auto`, unless NO_COLOR makes every
    /// theme mono (nothing to pick).
    public func asksBackground(_ environment: [String: String]) -> Bool {
        self == .auto && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Whether text in the terminal's default colour is dark on it: relative luminance (WCAG)
    /// above the point where black and white text have equal contrast.
    public static func isLight(_ color: RGB) -> Bool { Contrast.luminance(color) > 0.179 }

    static func hex(_ color: RGB) -> String {
        "#" + [color.red, color.green, color.blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// WCAG 2 contrast between two colours: (L1 + 0.05) / (L2 + 0.05), from 1 (none) to 21.
public enum Contrast {
    /// Relative luminance of an sRGB colour.
    public static func luminance(_ color: RGB) -> Double {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
    }

    public static func ratio(_ a: RGB, _ b: RGB) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }
}
