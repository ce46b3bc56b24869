/// A direction for keyboard navigation between pins.
public enum MapDirection: Sendable, Hashable, CaseIterable {
    case up, down, left, right

    /// Unit step in cell space (columns grow right, rows grow down).
    var step: (dx: Double, dy: Double) {
        switch self {
        case .up: (0, -1)
        case .down: (0, 1)
        case .left: (-1, 0)
        case .right: (1, 0)
        }
    }
}
