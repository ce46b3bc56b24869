import Geo

/// The geocoder the app uses: the offline gazetteer, so posting works without the internet.
enum AppGeocoder {
    static func make() -> any Geocoder {
        OfflineGeocoder()
    }
}
