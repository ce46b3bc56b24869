import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file written for the user — an export, a picture — by either program: written whole into a
/// new file beside its target, created readable by its owner only (0600) with `O_EXCL` and
/// `O_NOFOLLOW` (nothing already there, no symlink, is ever opened, truncated or written
/// through), then put in the target's place. The place must be free unless `replacing` (the
/// commands' `--force`): then whatever is there, a symlink included, is replaced, never written
/// through. Until `commit()` the target is untouched; a file never committed is removed.
public final class PrivateFile {
    public let path: String
    private let replacing: Bool
    private let temporary: String
    private var descriptor: Int32
    private var committed = false

    /// Opens the new file beside `path`; refuses at once when `path` is taken and not `replacing`.
    public init(at path: String, replacing: Bool) throws(PrivateFileError) {
        self.path = path
        self.replacing = replacing
        var status = stat()
        if !replacing, lstat(path, &status) == 0 { throw .exists(path) }
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var opened: (String, Int32)?
        for _ in 0..<16 {
            let candidate = (folder.isEmpty ? "" : folder + "/") + ".\(name).\(UInt32.random(in: 0...UInt32.max)).tmp"
            let made = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if made >= 0 {
                opened = (candidate, made)
                break
            }
            if errno != EEXIST { throw .cannotWrite(path, String(cString: strerror(errno))) }
        }
        guard let (temporary, descriptor) = opened else { throw .cannotWrite(path, "no free temporary name beside it") }
        // The mode asked for is masked by the umask; 0600 whatever the umask is.
        guard fchmod(descriptor, 0o600) == 0 else {
            close(descriptor)
            unlink(temporary)
            throw .cannotWrite(path, "cannot make it private (mode 0600)")
        }
        self.temporary = temporary
        self.descriptor = descriptor
    }

    /// The new file's own path, until `commit`: for a writer that opens files by path (SQLite's
    /// backup), which writes there instead of through `write`.
    public var temporaryPath: String { temporary }

    /// Appends `bytes`.
    public func write(_ bytes: some DataProtocol) throws(PrivateFileError) {
        var remaining = Array(bytes)[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw .cannotWrite(path, String(cString: strerror(errno))) }
            remaining = remaining.dropFirst(written)
        }
    }

    /// Puts the written file in its place: flushed to disk first, then linked where nothing is
    /// (a link never replaces: a file that appeared meanwhile is refused), or renamed over what
    /// is there when `replacing`.
    public func commit() throws(PrivateFileError) {
        guard fsync(descriptor) == 0 else { throw .cannotWrite(path, String(cString: strerror(errno))) }
        close(descriptor)
        descriptor = -1
        if replacing {
            guard rename(temporary, path) == 0 else { throw .cannotWrite(path, String(cString: strerror(errno))) }
        } else {
            guard link(temporary, path) == 0 else {
                throw errno == EEXIST ? .exists(path) : .cannotWrite(path, String(cString: strerror(errno)))
            }
            unlink(temporary)
        }
        committed = true
    }

    /// Writes `bytes` to `path` as `PrivateFile` does, in one go.
    public static func write(_ bytes: some DataProtocol, to path: String, replacing: Bool) throws(PrivateFileError) {
        let file = try PrivateFile(at: path, replacing: replacing)
        try file.write(bytes)
        try file.commit()
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !committed { unlink(temporary) }
    }
}

/// Why a file for the user was not written.
public enum PrivateFileError: Error, CustomStringConvertible, Equatable {
    /// Something is already at the path (a file, a folder, a symlink): replaced only when asked.
    case exists(String)
    case cannotWrite(String, String)

    public var description: String {
        switch self {
        case .exists(let path): "\(path) already exists: give --force to replace it"
        case .cannotWrite(let path, let why): "cannot write \(path): \(why)"
        }
    }
}
