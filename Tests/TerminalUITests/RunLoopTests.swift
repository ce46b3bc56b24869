import AppTestSupport
import Foundation
import Testing
import ViewModels

@testable import TerminalUI

/// A backend that records what it is given to draw and hands out queued events.
@MainActor
final class RecordingBackend: Backend {
    var size = (width: 100, height: 30)
    private(set) var drawn: [Buffer] = []
    var events: [Event] = []

    /// What `setClipboard` was given, in order.
    private(set) var clipboard: [String] = []

    func draw(_ buffer: Buffer) { drawn.append(buffer) }

    /// Whether it says it shows pictures, the pictures it was given with each frame, and how
    /// often it was asked to suspend.
    var showsPictures = false
    private(set) var pictures: [[PictureScene]] = []
    private(set) var suspensions = 0

    func draw(_ buffer: Buffer, pictures: [PictureScene]) {
        drawn.append(buffer)
        self.pictures.append(pictures)
    }

    func suspend() { suspensions += 1 }

    func setClipboard(_ text: String) { clipboard.append(text) }

    func nextEvent(timeoutMilliseconds: Int) -> Event? {
        if !events.isEmpty { return events.removeFirst() }
        usleep(UInt32(timeoutMilliseconds) * 1000)
        return nil
    }
}

@MainActor
struct RunLoopTests {
    /// The clock stands still, so no timed redraw can happen: only the change can cause it.
    @Test func aChangeToWhatTheScreenShowsRedrawsWithoutAnEvent() async {
        guard let model = await loggedInApp(serverName: "first:1") else {
            Issue.record("the demo login did not finish")
            return
        }
        let backend = RecordingBackend()
        let ui = AppController(app: model, ascii: false)
        let running = Task { await ui.run(on: backend) }
        #expect(await eventually { backend.drawn.last?.text.contains("first:1") == true })
        let count = backend.drawn.count
        model.serverName = "second:2"
        #expect(await eventually { backend.drawn.last?.text.contains("second:2") == true })
        #expect(backend.drawn.count == count + 1)
        backend.events.append(.endOfInput)
        await running.value
    }

    /// Frames drawn while the last tracking still waits (here: after events that change nothing
    /// observed, and after the too-small screen, which reads nothing) keep redrawing on changes.
    @Test func changesStillRedrawAfterUntrackedFramesAndAResize() async {
        guard let model = await loggedInApp(serverName: "first:1") else {
            Issue.record("the demo login did not finish")
            return
        }
        let backend = RecordingBackend()
        let ui = AppController(app: model, ascii: false)
        let running = Task { await ui.run(on: backend) }
        backend.events += Array(repeating: .resize(width: 100, height: 30), count: 5)
        #expect(await eventually { backend.drawn.count == 6 })
        model.serverName = "second:2"
        #expect(await eventually { backend.drawn.last?.text.contains("second:2") == true })
        backend.size = (30, 8)
        backend.events.append(.resize(width: 30, height: 8))
        #expect(await eventually { backend.drawn.last?.text.contains("Terminal too small") == true })
        backend.size = (100, 30)
        backend.events.append(.resize(width: 100, height: 30))
        #expect(await eventually { backend.drawn.last?.text.contains("second:2") == true })
        model.serverName = "third:3"
        #expect(await eventually { backend.drawn.last?.text.contains("third:3") == true })
        backend.events.append(.endOfInput)
        await running.value
    }
}
