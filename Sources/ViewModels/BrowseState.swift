import OnTheMapModels

/// The three views of the data.
public enum Pane: Int, Sendable, CaseIterable {
    case map, table, cards

    public var title: String {
        switch self {
        case .map: "Map"
        case .table: "Table"
        case .cards: "Cards"
        }
    }
}

/// What the user is looking at, shared by every pane: the tab, the selected row and the filter.
public struct BrowseState: Sendable, Equatable {
    public var pane: Pane = .map
    public var selectedID: String?
    public var filter = ""
    public var isEditingFilter = false
    /// First row shown in the table (scroll offset).
    public var tableOffset = 0
    /// The order of the table and the cards (`s` cycles).
    public var sort = TableSort.newest

    public init() {}

    /// The rows that pass the filter, in store order.
    public func visible(_ locations: [StudentInformation]) -> [StudentInformation] {
        LocationFilter.apply(filter, to: locations)
    }

    /// Index of the selection among `rows`, or nil.
    public func selectedIndex(in rows: [StudentInformation]) -> Int? {
        guard let selectedID else { return nil }
        return rows.firstIndex { $0.objectId == selectedID }
    }

    /// Moves the selection by `delta` rows (clamped), selecting the first row when none is.
    public mutating func move(by delta: Int, in rows: [StudentInformation]) {
        guard !rows.isEmpty else {
            selectedID = nil
            return
        }
        let current = selectedIndex(in: rows) ?? (delta >= 0 ? -1 : rows.count)
        let next = min(max(current + delta, 0), rows.count - 1)
        selectedID = rows[next].objectId
    }

    /// Selects the first (`top`) or last row.
    public mutating func jump(toTop top: Bool, in rows: [StudentInformation]) {
        selectedID = (top ? rows.first : rows.last)?.objectId
    }

    /// Keeps the selection on a visible row after the data or the filter changed.
    public mutating func repair(in rows: [StudentInformation]) {
        if selectedIndex(in: rows) == nil { selectedID = rows.first?.objectId }
    }

    /// Cycles panes forward or back.
    public mutating func cyclePane(forward: Bool) {
        let count = Pane.allCases.count
        pane = Pane(rawValue: (pane.rawValue + (forward ? 1 : count - 1)) % count) ?? .map
    }
}
