import APIClient
import AppTestSupport
import Testing

@testable import ViewModels

@MainActor
struct LoginViewModelTests {
    @Test func emptyFieldsAreRefusedBeforeAnyRequest() async {
        let api = FakeAPI()
        let model = LoginViewModel(api: api)
        model.email = "a@b.c"
        #expect(await model.submit() == nil)
        #expect(model.flashedField == .password)
        #expect(model.focus == .password)
        #expect(await api.calls.isEmpty)
    }

    @Test func wrongPasswordShowsTheCredentialsMessage() async {
        let api = FakeAPI()
        await api.set(login: .failure(.invalidCredentials(message: "Account not found or invalid credentials.")))
        let model = LoginViewModel(api: api)
        model.email = "a@b.c"
        model.password = "nope"
        #expect(await model.submit() == nil)
        #expect(model.alert == "Wrong email or password.")
        #expect(model.isBusy == false)
        #expect(model.password.isEmpty, "a refused password is retyped, not edited")
        #expect(model.focus == .password)
        #expect(model.email == "a@b.c")
    }

    @Test func unreachableServerKeepsThePassword() async {
        let api = FakeAPI()
        await api.set(login: .failure(.cannotReachServer(server: "127.0.0.1:9")))
        let model = LoginViewModel(api: api)
        model.email = "a@b.c"
        model.password = "right"
        _ = await model.submit()
        #expect(model.password == "right")
    }

    @Test func controlUClearsTheFocusedField() {
        let model = LoginViewModel(api: FakeAPI())
        model.email = "typo@example.com"
        model.focus = .email
        model.clearField()
        #expect(model.email.isEmpty)
    }

    @Test func unreachableServerIsNamed() async {
        let api = FakeAPI()
        await api.set(login: .failure(.cannotReachServer(server: "127.0.0.1:9")))
        let model = LoginViewModel(api: api)
        model.email = "a@b.c"
        model.password = "x"
        _ = await model.submit()
        #expect(model.alert?.contains("127.0.0.1:9") == true)
    }

    @Test func successReturnsTheSessionAndForgetsThePassword() async {
        let model = LoginViewModel(api: FakeAPI())
        model.email = " a@b.c "
        model.password = "secret"
        let session = await model.submit()
        #expect(session?.accountKey == FakeAPI.accountKey)
        #expect(model.password.isEmpty)
    }

    @Test func signUpNeedsNamesAndUsesTheSignUpEndpoint() async {
        let api = FakeAPI()
        let model = LoginViewModel(api: api)
        model.toggleMode()
        #expect(model.focus == .firstName)
        model.email = "n@b.c"
        model.password = "pw"
        _ = await model.submit()
        #expect(model.flashedField == .firstName)
        model.firstName = "Ada"
        model.lastName = "L"
        #expect(await model.submit() != nil)
        // Opening the form asked for the sign-up policy; one sign-up was sent.
        #expect(await api.calls.filter { $0 != "authProviders" } == ["signUp n@b.c"])
    }

    @Test func typingGoesToTheFocusedFieldAndTabCycles() {
        let model = LoginViewModel(api: FakeAPI())
        model.type("x")
        model.focusNext()
        model.type("y")
        model.focusNext()
        model.type("z")
        #expect(model.email == "x")
        #expect(model.password == "y")
        #expect(model.focus == .submit)
        model.focusNext()
        model.focusNext()
        #expect(model.focus == .email)
    }
}
