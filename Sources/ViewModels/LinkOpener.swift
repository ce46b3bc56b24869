import Foundation
import Spawn

/// Opens web links with `$BROWSER` (else `xdg-open`), detached, the URL as one argument — never
/// through a shell. The opener runs in a session of its own with /dev/null for its input and
/// output (nothing it prints reaches the screen, and the terminal's keys never reach it) and none
/// of the app's other descriptors (`ChildProcess`).
public struct LinkOpener: Sendable {
    /// What happened when a link was handed over.
    public enum Outcome: Sendable, Equatable {
        case started(program: String)
        /// No opener could be started; the link should be shown for copying.
        case noOpener(String)
    }

    private let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// The programs to try, in order: each entry of `$BROWSER` (colon-separated), then xdg-open.
    public var candidates: [String] {
        let browsers = (environment["BROWSER"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        return browsers + ["xdg-open"]
    }

    /// Starts the first opener that exists with `url` (already checked by `LinkPolicy`).
    /// `onFailure` is called if the opener later exits with an error.
    public func open(_ url: String, onFailure: @escaping @Sendable (Int32) -> Void = { _ in }) -> Outcome {
        guard case .open(let safe) = LinkPolicy.decide(url), safe == url else {
            return .noOpener("refused")
        }
        for candidate in candidates {
            guard let executable = resolve(candidate) else { continue }
            do {
                _ = try ChildProcess(
                    executable: executable, arguments: [url], newSession: true,
                    onExit: { if $0 != .exited(0) { onFailure($0.status) } })
                return .started(program: candidate)
            } catch {
                continue
            }
        }
        return .noOpener("No browser could be started ($BROWSER is not set and xdg-open is missing).")
    }

    /// An executable path for `name`: itself when it contains a slash, else found on `$PATH`.
    func resolve(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let full = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: full) { return full }
        }
        return nil
    }
}
