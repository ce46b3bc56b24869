import ArgumentParser
import Foundation
import Geo

/// `--geocoder`, `--geocoder-url`, `--geocoder-user-agent`: which geocoder answers.
struct GeocoderOptions: ParsableArguments {
    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case offline, nominatim, photon
    }

    @Option(
        help: "offline (the bundled gazetteer, the default), nominatim or photon (online, falling back to offline).")
    var geocoder: Choice?

    /// The geocoder given on the command line, in the environment or in the settings file, else offline.
    var effectiveGeocoder: Choice {
        Choice(rawValue: AppSettings.resolve(geocoder: self).geocoder.value) ?? .offline
    }

    @Option(help: ArgumentHelp("The online geocoder's base URL (default: its public instance).", valueName: "url"))
    var geocoderURL: String?

    @Option(help: ArgumentHelp("The User-Agent sent to an online geocoder.", valueName: "text"))
    var geocoderUserAgent: String = OnlineGeocoderSettings.defaultUserAgent

    func validate() throws {
        AppSettings.warnOnce()
        if let text = geocoderURL {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme),
                url.host != nil
            else { throw ValidationError("The geocoder URL must be an http:// or https:// URL, not “\(text)”.") }
        }
    }

    /// The geocoder the options describe.
    func makeGeocoder() throws -> any Geo.Geocoder {
        let service: OnlineGeocoder.Service
        switch effectiveGeocoder {
        case .offline: return OfflineGeocoder()
        case .nominatim: service = .nominatim
        case .photon: service = .photon
        }
        guard let url = URL(string: geocoderURL ?? service.defaultBaseURL) else {
            throw ValidationError("The geocoder URL is not valid.")
        }
        return OnlineGeocoder(
            service: service, settings: OnlineGeocoderSettings(baseURL: url, userAgent: geocoderUserAgent))
    }
}
