import APIClient
import AppTestSupport
import OnTheMapModels
import Testing

@testable import ViewModels

/// The sign-up form after the server's policy: discovered when the form opens, learned again
/// from a refusal (issue 9, item 3).
@MainActor
struct SignUpPolicyTests {
    static func policy(_ signup: SignUpPolicy) -> Result<AuthProviders, APIError> {
        .success(AuthProviders(providers: [.init(type: "password", signup: signup)]))
    }

    func filledSignUp(_ api: FakeAPI) async -> LoginViewModel {
        let model = LoginViewModel(api: api)
        model.toggleMode()
        await model.discovery?.value
        model.firstName = "Ada"
        model.lastName = "Lovelace"
        model.email = "ada@example.com"
        model.password = "long enough"
        return model
    }

    @Test func anOpenServerHasNoInviteField() async {
        let api = FakeAPI()
        let model = await filledSignUp(api)
        #expect(model.signUpPolicy == .open)
        #expect(!model.fields.contains(.invite))
        #expect(await model.submit() != nil)
        #expect(await api.signUps.first?.invite == nil)
        #expect(await api.calls == ["authProviders", "signUp ada@example.com"])
    }

    @Test func anInviteServerAsksForTheCodeAndGetsIt() async {
        let api = FakeAPI()
        await api.set(providers: Self.policy(.invite))
        let model = await filledSignUp(api)
        #expect(model.fields == [.firstName, .lastName, .email, .password, .invite, .submit, .switchMode])
        #expect(await model.submit() == nil, "the code is required, like the other fields")
        #expect(model.flashedField == .invite)
        #expect(await api.signUps.isEmpty)
        model.focus = .password
        #expect(model.enter() == false, "Enter on the password moves on to the invite code")
        #expect(model.focus == .invite)
        for character in " K7Q-2XPA " { model.type(character) }
        #expect(model.enter() == true, "Enter on the last field sends the form")
        #expect(await model.submit() != nil)
        #expect(await api.signUps.first?.invite == "K7Q-2XPA")
    }

    @Test func aClosedServerSaysSoAndSendsNothing() async {
        let api = FakeAPI()
        await api.set(providers: Self.policy(.closed))
        let model = await filledSignUp(api)
        #expect(model.fields == [.switchMode])
        #expect(model.focus == .switchMode)
        #expect(await model.submit() == nil)
        #expect(model.alert == "This server does not take sign-ups. Ask its operator for an account, then log in.")
        #expect(await api.signUps.isEmpty)
    }

    @Test func anInviteRefusalShowsTheFieldEvenWhenDiscoveryFailed() async {
        let api = FakeAPI()
        await api.set(providers: .failure(.cannotReachServer(server: "x")))
        await api.set(signUp: .failure(.inviteRejected(message: "Missing parameter 'invite'")))
        let model = await filledSignUp(api)
        #expect(model.signUpPolicy == nil)
        #expect(!model.fields.contains(.invite))
        #expect(await model.submit() == nil)
        #expect(model.signUpPolicy == .invite)
        #expect(model.focus == .invite)
        #expect(model.alert == "This server signs people up by invitation: enter the invite code you were given.")
        model.invite = "WRONG"
        #expect(await model.submit() == nil)
        #expect(
            model.alert
                == "The invite code was not accepted (Missing parameter 'invite'). Check it, or ask for a new one.")
        #expect(await api.signUps.last?.invite == "WRONG")
    }

    @Test func aClosedRefusalTurnsTheFormIntoTheNotice() async {
        let api = FakeAPI()
        await api.set(signUp: .failure(.signUpClosed(message: "Sign-up is closed on this server.")))
        let model = await filledSignUp(api)
        #expect(await model.submit() == nil)
        #expect(model.signUpPolicy == .closed)
        #expect(model.fields == [.switchMode])
        #expect(model.alert == "This server does not take sign-ups. Ask its operator for an account, then log in.")
    }

    @Test func tooManySignUpsSaysWhenToTryAgain() async {
        let api = FakeAPI()
        await api.set(signUp: .failure(.tooManyRequests(retryAfter: 890, message: "Too many sign-ups.")))
        let model = await filledSignUp(api)
        #expect(await model.submit() == nil)
        #expect(model.alert == "Too many sign-ups from this address. Try again in 15 minutes.")
    }

    @Test func loggingInNeverAsksForThePolicy() async {
        let api = FakeAPI()
        let model = LoginViewModel(api: api)
        model.email = "a@b.c"
        model.password = "pw"
        _ = await model.submit()
        #expect(await api.calls == ["logIn a@b.c"])
    }
}

@MainActor
struct LoginThrottleMessageTests {
    @Test func tooManyLoginsSaysWhenToTryAgain() async {
        let api = FakeAPI()
        await api.set(login: .failure(.tooManyRequests(retryAfter: 42, message: "Too many failed logins.")))
        let model = LoginViewModel(api: api)
        model.email = "a@b.c"
        model.password = "pw"
        _ = await model.submit()
        #expect(model.alert == "Too many login attempts. Try again in 42 seconds.")
    }
}
