import Foundation

/// Finds this program's own executable, to start it again as a child process.
enum ExecutablePath {
    /// The absolute path of the running executable: `/proc/self/exe` where it exists (Linux),
    /// else `CommandLine.arguments[0]` resolved against the working directory and `PATH`.
    static func current() -> String? {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            FileManager.default.isExecutableFile(atPath: resolved)
        {
            return resolved
        }
        guard let first = CommandLine.arguments.first, !first.isEmpty else { return nil }
        if first.contains("/") {
            let url = URL(fileURLWithPath: first, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            let path = url.standardizedFileURL.path
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(first).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
