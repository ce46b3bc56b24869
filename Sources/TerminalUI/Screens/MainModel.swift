import Foundation
import OnTheMapModels
import ViewModels

/// The map pane's view: centre and zoom (1 = the whole world).
public struct MapView: Sendable, Equatable {
    public var latitude = 20.0
    public var longitude = 0.0
    public var zoom = 1.0

    public init() {}

    public mutating func pan(columns: Int, rows: Int) {
        longitude = min(180, max(-180, longitude + Double(columns) * 20 / zoom))
        latitude = min(85, max(-85, latitude - Double(rows) * 10 / zoom))
    }

    public mutating func zoom(by factor: Double) {
        zoom = min(64, max(1, zoom * factor))
    }

    public mutating func center(on location: StudentInformation) {
        latitude = location.latitude
        longitude = location.longitude
    }
}

/// Everything the main view draws, as plain values.
public struct MainModel: Sendable {
    public var rows: [StudentInformation]
    public var totalCount: Int
    public var browse: BrowseState
    public var status: String
    public var server: String
    public var accountKey: String?
    public var now: Date
    public var milliseconds: Int
    public var isRefreshing: Bool
    public var annotationOpen: Bool
    public var helpOpen: Bool
    public var toast: String?
    public var alert: String?
    public var map: MapView
    public var ascii: Bool

    public init(
        rows: [StudentInformation], totalCount: Int, browse: BrowseState, status: String, server: String,
        accountKey: String? = nil, now: Date, milliseconds: Int = 0, isRefreshing: Bool = false,
        annotationOpen: Bool = false, helpOpen: Bool = false, toast: String? = nil, alert: String? = nil,
        map: MapView = MapView(), ascii: Bool = false
    ) {
        self.rows = rows
        self.totalCount = totalCount
        self.browse = browse
        self.status = status
        self.server = server
        self.accountKey = accountKey
        self.now = now
        self.milliseconds = milliseconds
        self.isRefreshing = isRefreshing
        self.annotationOpen = annotationOpen
        self.helpOpen = helpOpen
        self.toast = toast
        self.alert = alert
        self.map = map
        self.ascii = ascii
    }

    /// The selected row, if visible.
    public var selected: StudentInformation? {
        browse.selectedIndex(in: rows).map { rows[$0] }
    }
}
