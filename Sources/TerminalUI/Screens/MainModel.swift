import Foundation
import OnTheMapModels
import ViewModels
import WorldMap

/// The map pane's view: centre and zoom, independent of the terminal size (1 = the whole world).
public struct MapView: Sendable, Equatable {
    /// nil until the user moves the map: the world view's own centre.
    public var latitude: Double?
    public var longitude = 0.0
    public var zoom = 1.0

    public init() {}

    /// The WorldMap viewport for a map of `width`×`height` cells.
    public func viewport(width: Int, height: Int) -> Viewport {
        let world = Viewport.world(width: max(1, width), height: max(1, height))
        guard latitude != nil || zoom != 1 || longitude != 0 else { return world }
        return Viewport(
            width: max(1, width), height: max(1, height), centerLatitude: latitude ?? world.centerLatitude,
            centerLongitude: longitude, zoom: zoom)
    }

    /// Changes the view through a viewport of the given size (pan, zoom, centre, fit).
    public mutating func update(width: Int, height: Int, _ change: (inout Viewport) -> Void) {
        var viewport = viewport(width: width, height: height)
        change(&viewport)
        latitude = viewport.centerLatitude
        longitude = viewport.centerLongitude
        zoom = viewport.zoom
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
    /// The key table the footer and the help overlay are read from.
    public var keys: KeyMap
    /// Your own pin: the table's and the cards' distances are measured from it.
    public var home: GeoPoint?
    /// Accessible mode: the Map pane in words, marks said in text (`AccessibleText`).
    public var accessible = false
    /// The last map action's sentence or notice, kept on a line until the next one.
    public var announcement: String?
    /// A moderator's main view has its own keys (footer and help).
    public var isModerator = false
    /// Who is looking: whether a row is yours, and whether you may hide it, is asked of it alone.
    public var viewer: Viewer { Viewer(accountKey: accountKey, isModerator: isModerator) }
    /// The "Go to" prompt, while it is open.
    public var goTo: GoToPrompt?
    /// Rows (by objectId) that arrived live a moment ago: tagged `new` in the table and the cards.
    public var newRows: Set<String> = []
    /// The map is a picture (`PictureScene`): the pane draws only the names in cells.
    public var graphics = false
    /// The most cells the terminal shows a picture over (nil: any): a larger pane gets a smaller
    /// picture in its middle, or cells when too little would fit (`PictureLimit.fit`).
    public var pictureLimit: PictureLimit?

    public init(
        rows: [StudentInformation], totalCount: Int, browse: BrowseState, status: String, server: String,
        accountKey: String? = nil, now: Date, milliseconds: Int = 0, isRefreshing: Bool = false,
        annotationOpen: Bool = false, helpOpen: Bool = false, toast: String? = nil, alert: String? = nil,
        map: MapView = MapView(), ascii: Bool = false, keys: KeyMap = .standard, home: GeoPoint? = nil
    ) {
        self.home = home
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
        self.keys = keys
    }

    /// The selected row, if visible.
    public var selected: StudentInformation? {
        browse.selectedIndex(in: rows).map { rows[$0] }
    }
}
