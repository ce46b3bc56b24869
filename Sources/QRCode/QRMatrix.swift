/// A QR code as a square of dark and light modules, without the quiet zone: a pure value that
/// screens draw as cells (`QRMatrix.encode` makes one with libqrencode).
public struct QRMatrix: Sendable, Hashable {
    /// Modules per side.
    public let size: Int
    /// Row-major, `true` for dark.
    public let modules: [Bool]

    /// `nil` unless `modules` has `size × size` entries.
    public init?(size: Int, modules: [Bool]) {
        guard size > 0, modules.count == size * size else { return nil }
        self.size = size
        self.modules = modules
    }

    /// Whether the module at column `x`, row `y` is dark; outside the square (the quiet zone) is light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// The modules of the quiet zone a scanner needs on each side (the standard asks for 4;
    /// 2 is what phones read reliably from a terminal, and saves rows).
    public static let quietZone = 2

    /// Text lines of half blocks: each character is two modules stacked (`▀` top dark, `▄`
    /// bottom dark, `█` both, space neither), quiet zone included; `ascii` uses `#` for dark
    /// and one line per module row, two characters per module, for terminals without the blocks.
    public func lines(ascii: Bool = false) -> [String] {
        let low = -Self.quietZone
        let high = size + Self.quietZone
        if ascii {
            return stride(from: low, to: high, by: 1).map { y in
                String(stride(from: low, to: high, by: 1).flatMap { x in isDark(x: x, y: y) ? "##" : "  " })
            }
        }
        return stride(from: low, to: high, by: 2).map { y in
            String(
                stride(from: low, to: high, by: 1).map { x -> Character in
                    switch (isDark(x: x, y: y), isDark(x: x, y: y + 1)) {
                    case (true, true): "█"
                    case (true, false): "▀"
                    case (false, true): "▄"
                    case (false, false): " "
                    }
                })
        }
    }
}
