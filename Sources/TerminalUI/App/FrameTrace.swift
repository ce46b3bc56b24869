import Foundation

/// Timing lines for benchmarks (`ONTHEMAP_TRACE=<file>`): one line per drawn frame with the
/// milliseconds spent rendering and blitting, and marks such as the login request.
public final class FrameTrace {
    private let handle: FileHandle

    /// Opens (truncating) `path`; nil when it cannot be written.
    public init?(path: String) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { return nil }
        self.handle = handle
    }

    /// `<unix time ms> <event> <details>`.
    public func mark(_ event: String, _ details: String = "") {
        let now = Int((Date().timeIntervalSince1970 * 1000).rounded())
        handle.write(Data("\(now) \(event) \(details)\n".utf8))
    }
}
