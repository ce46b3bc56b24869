import Foundation
import Geo
import OnTheMapModels
import SafeText
import ViewModels
import WorldMap

extension MapWords {
    /// The one sentence a map action ends in, said from the state after it ("Zoomed in to
    /// Western Europe: 12 classmates"); nil for actions that are not about the map.
    public static func sentence(
        for action: Action, viewport: Viewport, rows: [StudentInformation], selected: StudentInformation?,
        viewer: Viewer, home: GeoPoint?, now: Date
    ) -> String? {
        let shown = inView(rows, viewport: viewport, home: home).count
        let view = "\(place(of: viewport)): \(count(shown))"
        func who(_ row: StudentInformation) -> String {
            describe(row, viewer: viewer, home: home, now: now)
        }
        switch action {
        case .zoomIn: return "Zoomed in to \(view)."
        case .zoomOut: return "Zoomed out to \(view)."
        case .wholeWorld: return "Showing the whole world: \(count(shown))."
        case .panLeft: return "Moved west to \(view)."
        case .panRight: return "Moved east to \(view)."
        case .panUp: return "Moved north to \(view)."
        case .panDown: return "Moved south to \(view)."
        case .fitPins, .fitAllPins: return "Fitted \(count(shown)) in \(place(of: viewport))."
        case .centerOnSelection:
            guard let selected else { return "No classmate selected." }
            return "Centred on \(spoken(SafeText.clean(selected.fullName))) in \(view)."
        case .nextPin, .previousPin, .selectNext, .selectPrevious, .selectFirst, .selectLast:
            guard let selected else { return "No classmates." }
            let position = rows.firstIndex { $0.objectId == selected.objectId }.map { "\($0 + 1) of \(rows.count)" }
            return "\(who(selected))\(position.map { ", \($0)" } ?? "")."
        case .showDetails:
            guard let selected else { return "No classmate selected." }
            let link = spoken(SafeText.clean(selected.mediaURL))
            return "Opened \(who(selected)); link \(link.isEmpty ? "none" : link). Enter opens the link, Esc closes."
        case .closeDetails: return "Closed the details."
        default: return nil
        }
    }

    /// The posting preview's map in words: `The pin: 35.69 north, 139.69 east, in Japan.`
    public static func pinSentence(_ place: Placemark) -> String {
        let country = PlaceLabels.country(atLatitude: place.latitude, longitude: place.longitude).map {
            PlaceLabels.countries[$0].name
        }
        return "The pin: " + String(format: "%.2f", abs(place.latitude)) + (place.latitude < 0 ? " south, " : " north, ")
            + String(format: "%.2f", abs(place.longitude)) + (place.longitude < 0 ? " west" : " east")
            + (country.map { ", in \($0)." } ?? ", at sea.")
    }
}
