import AppTestSupport
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
