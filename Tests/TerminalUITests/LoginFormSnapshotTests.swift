import APIClient
import AppTestSupport
import Foundation
import OnTheMapModels
import Testing
import ViewModels

@testable import TerminalUI

/// The sign-up form after the server's policy, the plain-http warning, and alerts carrying a
/// hostile server's text (issue 9, items 3 and 7).
@MainActor
struct LoginFormSnapshotTests {
    func signUpForm(_ policy: SignUpPolicy) async -> LoginViewModel {
        let model = LoginViewModel(api: FakeAPI(signUpPolicy: policy))
        model.toggleMode()
        await model.discovery?.value
        model.firstName = "Ada"
        model.lastName = "Lovelace"
        model.email = "ada@example.com"
        model.password = "secret"
        return model
    }

    func render(_ model: LoginViewModel, _ width: Int, _ height: Int) -> String {
        LoginScreen.render(model, width: width, height: height, milliseconds: 0).buffer.text
    }

    @Test func signUpWithoutAnInviteField() async {
        let model = await signUpForm(.open)
        let text = render(model, 80, 24)
        #expect(!text.contains("Invite code"))
        assertSnapshot(text, named: "signup-open-80x24")
    }

    @Test func signUpWithAnInviteField() async {
        let model = await signUpForm(.invite)
        model.focus = .invite
        for character in "K7Q-2XPA" { model.type(character) }
        for (width, height) in [(80, 24), (160, 48)] {
            let text = render(model, width, height)
            #expect(text.contains("Invite code"))
            assertSnapshot(text, named: "signup-invite-\(width)x\(height)")
        }
    }

    @Test func signUpClosed() async {
        let model = await signUpForm(.closed)
        let text = render(model, 80, 24)
        #expect(text.contains("This server does not take sign-ups."))
        #expect(!text.contains("[ Sign Up ]"))
        assertSnapshot(text, named: "signup-closed-80x24")
    }

    @Test func plainHTTPWarningOnTheLoginScreen() throws {
        let model = LoginViewModel(api: FakeAPI())
        model.transportWarning = PlainHTTPWarning.message(for: try #require(URL(string: "http://class.example.org:8080")))
        model.email = "ada@example.com"
        for (width, height) in [(80, 24), (160, 48)] {
            let text = render(model, width, height)
            #expect(text.contains("Plain http:// to class.example.org:8080"))
            assertSnapshot(text, named: "login-http-warning-\(width)x\(height)")
        }
    }

    @Test func alertsAndToastsShowNoneOfAHostileServersSequences() async {
        let hostile = "\u{1B}]52;c;aGVsbG8=\u{07}\u{1B}]0;owned\u{07}Bad\u{9D}0;t\u{9C} \u{202E}gnp.exe\u{2066}x\u{2069}"
        let model = LoginViewModel(api: FakeAPI(login: .failure(.refused(status: 400, message: hostile))))
        model.email = "a@b.c"
        model.password = "x"
        _ = await model.submit()
        var buffer = LoginScreen.render(model, width: 80, height: 24, milliseconds: 0).buffer
        Overlay.toast(&buffer, text: "Offline: " + hostile)
        let text = buffer.text
        #expect(text.contains("The server refused the request: Bad") && text.contains("Offline: Bad gnp.exex"))
        for leftover in ["52;c", "aGVsbG8", "owned", "0;t"] { #expect(!text.contains(leftover)) }
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
    }
}
