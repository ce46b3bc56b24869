import APIClient
import Foundation
import OnTheMapModels

/// "Log in with Facebook" (or another device-login provider): the flow on screen, Esc, the
/// opener, and what its end means for the app.
extension AppViewModel {
    /// Starts the device login of `login.deviceProviders[index]`; ignored while one runs.
    public func startDeviceLogin(_ index: Int) {
        guard phase == .login, deviceLogin == nil || deviceLogin?.isOver == true,
            login.deviceProviders.indices.contains(index)
        else { return }
        let flow = DeviceLoginFlow(provider: login.deviceProviders[index], api: api, devices: devices, clock: clock)
        deviceLogin = flow
        login.alert = nil
        deviceLoginTask = Task {
            let session = await flow.run()
            guard deviceLogin === flow else { return }
            deviceLogin = nil
            if let session {
                adopt(session)
            } else if case .failed(let failure) = flow.phase {
                login.alert = failure.message
            }
        }
    }

    /// Ctrl-F: Facebook's device login, when the server offers it.
    public func startFacebookLogin() {
        if let index = login.deviceProviders.firstIndex(where: { $0.name == "facebook" }) { startDeviceLogin(index) }
    }

    /// Esc: stops polling and goes back to the login form.
    public func cancelDeviceLogin() {
        deviceLogin?.cancel()
        deviceLoginTask?.cancel()
        deviceLogin = nil
        deviceLoginTask = nil
    }

    /// Opens the verification URL (with the code, when the provider gives one) with the opener.
    public func openDeviceLoginURL() {
        guard let url = deviceLogin?.code?.urlToOpen.absoluteString else { return }
        if case .noOpener = opener.open(url) {
            deviceLogin?.note = "No browser could be started: open the address on your phone or another computer."
        }
    }
}
