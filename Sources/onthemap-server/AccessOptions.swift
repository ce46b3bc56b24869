import ArgumentParser
import Foundation
import Logging
import OnTheMapModels
import OnTheMapServer
import ServerConfig

extension SignUpPolicy: ExpressibleByArgument {}

/// `serve`'s flags for who gets in and how much password hashing the process does.
struct AccessOptions: ParsableArguments {
    @Option(help: "Who may create an account: open, invite (needs a code from `invite create`) or closed.")
    var signup: SignUpPolicy = .open
    @Option(help: "Sign-ups from one client address per hour before it is refused with 429.")
    var signupsPerHour = 5
    @Option(help: "Login attempts at one account from its untrusted addresses together, per window, before they get 429.")
    var loginFailuresUntrusted = 50
    @Option(help: "Password hashes (login, sign-up) run at once; more wait, up to --max-waiting-hashes.")
    var maxConcurrentHashes = ServerConfiguration.defaultMaxConcurrentHashes
    @Option(help: "Password hashes that may wait for a place; beyond them the answer is 503 at once.")
    var maxWaitingHashes = 8
    @Option(help: "Seconds a password hash may wait for a place before it is answered 503.")
    var maxHashWaitSeconds = 2.0

    func validate() throws {
        guard (1...1000).contains(signupsPerHour) else { throw ValidationError("--signups-per-hour must be between 1 and 1000.") }
        guard loginFailuresUntrusted >= 5 else { throw ValidationError("--login-failures-untrusted must be at least 5.") }
        guard (1...64).contains(maxConcurrentHashes) else { throw ValidationError("--max-concurrent-hashes must be between 1 and 64.") }
        guard (0...1000).contains(maxWaitingHashes) else { throw ValidationError("--max-waiting-hashes must be between 0 and 1000.") }
        guard (0.01...60).contains(maxHashWaitSeconds) else { throw ValidationError("--max-hash-wait-seconds must be between 0.01 and 60.") }
    }

    func apply(to configuration: inout ServerConfiguration) {
        configuration.signUp = signup
        configuration.signUpsPerAddress = signupsPerHour
        configuration.loginThrottle.untrustedFailuresPerAccount = loginFailuresUntrusted
        configuration.maxConcurrentHashes = maxConcurrentHashes
        configuration.maxWaitingHashes = maxWaitingHashes
        configuration.maxHashWaitSeconds = maxHashWaitSeconds
    }

    /// Without --trust-proxy on an address other than loopback, a reverse proxy in front makes
    /// every client one address for the login and sign-up limits: say so at start.
    static func warnAboutProxy(_ configuration: ServerConfiguration, logger: Logger) {
        let loopback = ["127.0.0.1", "::1", "localhost"].contains(configuration.host) || configuration.host.hasPrefix("127.")
        guard !configuration.trustProxy, !loopback else { return }
        logger.warning(
            "Listening on \(configuration.host) without --trust-proxy: if a reverse proxy is in front, every client behind it shares the proxy's address for the login and sign-up limits (one client's failures block all). Behind a proxy, start with --trust-proxy.")
    }
}
