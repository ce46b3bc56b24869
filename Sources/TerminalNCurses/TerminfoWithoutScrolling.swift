import Foundation

/// A terminal's compiled terminfo entry with every way to scroll a part of the screen taken out,
/// for curses to start on while pictures are shown.
///
/// curses moves lines that moved (a list that lost its first row) by scrolling a region of the
/// screen, when the terminal's entry says it can. A picture is pixels laid over the cells, and a
/// terminal scrolls those with the text: xterm moved a Sixel map's pixels into the rows of the
/// "Go to" box when curses scrolled six of them by one, and no writing of text puts that right.
/// curses decides whether to try once, from the entry, when the screen is made (it cannot be
/// told later: the entry it reads is its own copy), so the entry it reads is this one, where
/// those capabilities are absent, and it writes moved lines instead.
///
/// The compiled format is term(5)'s: a header of six little-endian shorts (magic, the names'
/// size, the counts of booleans, numbers and string offsets, the string table's size), the
/// names, the booleans, a pad byte to an even offset, the numbers (2 bytes each, or 4 with the
/// 32-bit magic), then the string offsets, 2 bytes each, where -1 means absent. Only those
/// offsets change; the size and everything else stay as they were.
public enum TerminfoWithoutScrolling {
    /// `change_scroll_region`, `delete_line`, `insert_line`, `parm_delete_line`, `parm_index`,
    /// `parm_insert_line`, `parm_rindex`, `scroll_forward`, `scroll_reverse`: their indices
    /// among the strings (term.h).
    static let scrollingStrings = [3, 22, 53, 106, 109, 110, 113, 129, 130]

    /// The entry with those capabilities absent; nil when `entry` is not a compiled terminfo
    /// entry this understands.
    public static func entry(_ entry: [UInt8]) -> [UInt8]? {
        func short(_ offset: Int) -> Int { Int(entry[offset]) | Int(entry[offset + 1]) << 8 }
        guard entry.count >= 12 else { return nil }
        let numberSize: Int
        switch short(0) {
        case 0o432: numberSize = 2
        case 0o1036: numberSize = 4
        default: return nil
        }
        let (namesSize, booleans, numbers, strings) = (short(2), short(4), short(6), short(8))
        var offsets = 12 + namesSize + booleans
        if offsets % 2 == 1 { offsets += 1 }
        offsets += numbers * numberSize
        guard offsets + strings * 2 <= entry.count else { return nil }
        var patched = entry
        for index in scrollingStrings where index < strings {
            patched[offsets + index * 2] = 0xFF
            patched[offsets + index * 2 + 1] = 0xFF
        }
        return patched
    }

    /// Where ncurses looks for the entry of `name`, in its order: `$TERMINFO`, `~/.terminfo`,
    /// each of `$TERMINFO_DIRS` (an empty one meaning the defaults), then the defaults; in each,
    /// under the name's first letter or its hexadecimal code.
    public static func candidates(for name: String, environment: [String: String]) -> [String] {
        guard let first = name.utf8.first, !name.contains("/"), !name.hasPrefix(".") else { return [] }
        let defaults = ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"]
        var folders: [String] = []
        if let own = environment["TERMINFO"], !own.isEmpty { folders.append(own) }
        if let home = environment["HOME"], !home.isEmpty { folders.append(home + "/.terminfo") }
        if let list = environment["TERMINFO_DIRS"] {
            for folder in list.split(separator: ":", omittingEmptySubsequences: false) {
                folders += folder.isEmpty ? defaults : [String(folder)]
            }
        }
        folders += defaults
        let letter = String(UnicodeScalar(first)), hex = String(format: "%02x", first)
        return folders.flatMap { ["\($0)/\(letter)/\(name)", "\($0)/\(hex)/\(name)"] }
    }

    /// Writes the entry of `name` without scrolling into a new private folder and returns the
    /// folder, for `TERMINFO` while curses starts (the caller removes it afterwards); nil when no
    /// entry is found or understood, and curses then starts on the terminal's own.
    public static func writeFolder(for name: String, environment: [String: String]) -> URL? {
        for path in candidates(for: name, environment: environment) {
            guard let data = FileManager.default.contents(atPath: path), let patched = entry(Array(data)) else {
                continue
            }
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("onthemap-terminfo-\(getpid())-\(UUID().uuidString.prefix(8))")
            let letter = String(UnicodeScalar(name.utf8.first!))
            do {
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent(letter), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
                try Data(patched).write(to: folder.appendingPathComponent(letter).appendingPathComponent(name))
                return folder
            } catch {
                try? FileManager.default.removeItem(at: folder)
                return nil
            }
        }
        return nil
    }
}
