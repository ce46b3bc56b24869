#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the detailed map file is looked for, in order: `$ONTHEMAP_MAP_DATA` (a file), then
/// `<executable's folder>/../share/onthemap/detail.otmd` (what `make install` and the .deb lay
/// down: scripts/install-files.sh), then the source tree's `MapData/detail.otmd` (tests, and a
/// binary run from its build folder).
enum DetailMapLocation {
    static let environmentVariable = "ONTHEMAP_MAP_DATA"
    static let fileName = "detail.otmd"

    static func candidates() -> [String] {
        var paths: [String] = []
        if let value = getenv(environmentVariable), let path = String(validatingCString: value), !path.isEmpty {
            paths.append(path)
        }
        if let executable = executablePath(), let slash = executable.lastIndex(of: "/") {
            paths.append(String(executable[..<slash]) + "/../share/onthemap/" + fileName)
        }
        paths.append(sourceTreePath)
        return paths
    }

    /// The first candidate that exists, and every one tried (for the note when none does).
    static func find() -> (path: String?, tried: [String]) {
        let paths = candidates()
        return (paths.first { access($0, R_OK) == 0 }, paths)
    }

    /// `MapData/detail.otmd` beside `Sources/` in the tree this file was compiled from.
    static var sourceTreePath: String {
        var path = String(#filePath)
        for _ in 0..<3 {
            guard let slash = path.lastIndex(of: "/") else { break }
            path = String(path[..<slash])
        }
        return path + "/MapData/" + fileName
    }

    private static func executablePath() -> String? {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            return nil
        #endif
    }
}
