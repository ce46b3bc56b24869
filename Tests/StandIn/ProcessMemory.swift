import Foundation

/// A running process's memory, from `/proc/<pid>/status`, for tests that bound what a flood
/// makes a server (or a client: `FloodInChild`) hold.
public enum ProcessMemory {
    /// The peak resident memory of process `pid`, in MB (`VmHWM`; `VmRSS` for the present one).
    public static func megabytes(_ pid: Int32, _ field: String = "VmHWM") -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes / 1024
    }
}
