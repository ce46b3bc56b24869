import AppTestSupport
import OnTheMapModels
import Testing
import ViewModels

@testable import TerminalUI

@MainActor
struct PostingSnapshotTests {
    func render(_ model: PostingViewModel, _ width: Int, _ height: Int) -> String {
        let base = MainScreen.render(
            MainModel(
                rows: SampleRows.all, totalCount: 6, browse: BrowseState(), status: "6 locations",
                server: "127.0.0.1:8080", now: TestClock.start),
            width: width, height: height)
        return PostingScreen.render(model, over: base, milliseconds: 0).buffer.text
    }

    @Test func everyStep() async {
        for (width, height) in [(80, 24), (160, 48)] {
            let api = FakeAPI()
            let model = PostingViewModel(api: api, geocoder: FakeGeocoder(delay: .milliseconds(150)), accountKey: "me")
            assertSnapshot(render(model, width, height), named: "posting-enter-\(width)x\(height)")
            model.findLocation()
            assertSnapshot(render(model, width, height), named: "posting-empty-alert-\(width)x\(height)")
            model.alert = nil
            model.location = "Mountain View"
            model.link = "github.com/ada"
            model.findLocation()
            assertSnapshot(render(model, width, height), named: "posting-geocoding-\(width)x\(height)")
            #expect(await eventually { model.chosen != nil })
            assertSnapshot(render(model, width, height), named: "posting-confirm-\(width)x\(height)")
            await api.set(mine: [SampleRows.all[0]])
            model.finish()
            #expect(await eventually { if case .overwrite = model.step { true } else { false } })
            assertSnapshot(render(model, width, height), named: "posting-overwrite-\(width)x\(height)")
        }
    }

    @Test func notFoundAlert() async {
        let model = PostingViewModel(api: FakeAPI(), geocoder: FakeGeocoder(), accountKey: "me")
        model.location = "Atlantis"
        model.link = "https://a.example"
        model.findLocation()
        #expect(await eventually { model.alert != nil })
        assertSnapshot(render(model, 80, 24), named: "posting-not-found-80x24")
    }
}
