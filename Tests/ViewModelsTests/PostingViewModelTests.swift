import AppTestSupport
import BoundedHTTP
import Foundation
import Geo
import Testing

@testable import ViewModels

@MainActor
struct PostingViewModelTests {
    func filled(_ api: FakeAPI, geocoder: FakeGeocoder = FakeGeocoder()) -> PostingViewModel {
        let model = PostingViewModel(api: api, geocoder: geocoder, accountKey: FakeAPI.accountKey)
        model.location = "Mountain View"
        model.link = "github.com/ada"
        return model
    }

    @Test func emptyFieldsGiveAnAlertAndNoRequest() async {
        let model = PostingViewModel(api: FakeAPI(), geocoder: FakeGeocoder(), accountKey: FakeAPI.accountKey)
        model.findLocation()
        #expect(model.alert?.contains("where you are studying") == true)
        model.location = "Paris"
        model.alert = nil
        model.findLocation()
        #expect(model.alert?.contains("link") == true)
        #expect(model.step == .enter)
    }

    @Test func unsafeLinksAreRefused() {
        let model = PostingViewModel(api: FakeAPI(), geocoder: FakeGeocoder(), accountKey: FakeAPI.accountKey)
        model.location = "Paris"
        model.link = "javascript:alert(1)"
        model.findLocation()
        #expect(model.alert?.contains("only http and https") == true)
    }

    @Test func fullFlowPostsWithNamesFromThePublicUser() async {
        let api = FakeAPI()
        let model = filled(api)
        model.findLocation()
        #expect(model.step == .geocoding)
        #expect(await eventually { model.chosen != nil })
        model.choice = 1
        #expect(model.chosen?.displayName == "Mountain View, Wyoming, US")
        var posted: String?
        model.finish { posted = $0 }
        #expect(await eventually { posted != nil })
        #expect(posted == "new1")
        let created = await api.created
        #expect(created.first?.firstName == "Ada")
        #expect(created.first?.mediaURL == "https://github.com/ada")
        #expect(created.first?.latitude == 41.27)
    }

    /// An online geocoder's street answer: the preview and the post are at city level by default,
    /// as found with `exact`; a place answer is posted as it is either way.
    @Test(arguments: [Precision.city, .exact, nil])
    func aStreetAnswerIsPostedAtTheChosenPrecision(precision: Precision?) async {
        let api = FakeAPI()
        let key = FakeAPI.accountKey
        let model =
            precision.map { PostingViewModel(api: api, geocoder: FakeGeocoder(), accountKey: key, precision: $0) }
            ?? PostingViewModel(api: api, geocoder: FakeGeocoder(), accountKey: key)
        model.location = "1600 Amphitheatre Parkway, Mountain View"
        model.link = "github.com/ada"
        model.findLocation()
        #expect(await eventually { model.chosen != nil })
        let exact = precision == .exact
        #expect(model.chosen?.latitude == (exact ? 37.4224857 : 37.42))
        #expect(model.chosen?.precision == (exact ? .address : .city))
        var posted: String?
        model.finish { posted = $0 }
        #expect(await eventually { posted != nil })
        let created = await api.created
        #expect(created.first?.latitude == (exact ? 37.4224857 : 37.42))
        #expect(created.first?.longitude == (exact ? -122.0855846 : -122.09))
        // What the student typed is theirs to post; only the coordinates are the geocoder's.
        #expect(created.first?.mapString == "1600 Amphitheatre Parkway, Mountain View")
    }

    /// Nominatim's answer for a street with neither `addresstype` nor `place_rank`: the app posts
    /// it on the city grid, as `onthemap post` does (it had gone out as 37.80123456, -122.27123456).
    @Test func anOnlineAnswerOfUnknownClassIsPostedOnTheCityGrid() async throws {
        struct Unclassed: HTTPExchanging {
            func exchange(_ request: HTTPRequest, maxBytes: Int, deadline: Duration) async throws(HTTPFailure) -> HTTPAnswer {
                HTTPAnswer(
                    status: 200, fields: [],
                    body: Data(#"[{"lat":"37.80123456","lon":"-122.27123456","display_name":"1 Broadway, Oakland"}]"#.utf8))
            }
        }
        let settings = OnlineGeocoderSettings(baseURL: try #require(URL(string: "http://127.0.0.1:9")))
        let geocoder = OnlineGeocoder(service: .nominatim, settings: settings, fallback: nil, http: Unclassed())
        let api = FakeAPI()
        let model = PostingViewModel(api: api, geocoder: geocoder, accountKey: FakeAPI.accountKey)
        model.location = "1 Broadway, Oakland"
        model.link = "github.com/ada"
        model.findLocation()
        #expect(await eventually { model.chosen != nil })
        var posted: String?
        model.finish { posted = $0 }
        #expect(await eventually { posted != nil })
        let created = await api.created
        #expect(created.first?.latitude == 37.8)
        #expect(created.first?.longitude == -122.27)
    }

    @Test func existingRowAsksToOverwriteThenPuts() async {
        let api = FakeAPI()
        await api.set(mine: [SampleRows.row("old7", "Ada Lovelace")])
        let model = filled(api)
        model.findLocation()
        #expect(await eventually { model.chosen != nil })
        model.finish()
        #expect(await eventually { if case .overwrite = model.step { true } else { false } })
        var posted: String?
        model.finish { posted = $0 }
        #expect(await eventually { posted != nil })
        #expect(posted == "old7")
        #expect(await api.updated.first?.0 == "old7")
        #expect(await api.created.isEmpty)
    }

    @Test func notFoundNamesTheText() async {
        let model = filled(FakeAPI(), geocoder: FakeGeocoder(failure: .notFound(query: "Mountain View")))
        model.findLocation()
        #expect(await eventually { model.alert != nil })
        #expect(model.alert == "No place found for “Mountain View”.")
        #expect(model.step == .enter)
    }

    @Test func cancellingGeocodingIgnoresTheLateAnswer() async {
        let model = filled(FakeAPI(), geocoder: FakeGeocoder(delay: .milliseconds(100)))
        model.findLocation()
        #expect(model.cancel() == false)
        #expect(model.step == .enter)
        try? await Task.sleep(for: .milliseconds(200))
        #expect(model.step == .enter)
        #expect(model.cancel() == true)
    }
}
