import Foundation

/// Finds `bridge-inspector-webkit`, the runner built from Integrations/WebKitRunner (a package of
/// its own, so that building this package never needs WebKit).
///
/// In order: `$BRIDGE_INSPECTOR_WEBKIT_RUNNER`; beside the running executable (an install that
/// copied both); the runner package's build in the repository the executable was built in, or
/// in the current directory's (release, then debug); each directory of `$PATH`.
public enum WebKitRunnerLocator {
    /// The runner's executable name.
    public static let executableName = "bridge-inspector-webkit"
    /// The environment variable that names the runner's path.
    public static let environmentVariable = "BRIDGE_INSPECTOR_WEBKIT_RUNNER"
    /// The runner package, relative to the repository.
    public static let packagePath = "Integrations/WebKitRunner"

    /// The runner's path; throws ``WebKitJourneyError/runnerNotFound(looked:)`` saying where it looked.
    public static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executablePath: String = CommandLine.arguments.first ?? "",
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) throws -> String {
        let candidates = self.candidates(executablePath: executablePath, currentDirectory: currentDirectory)
        let onPath = (environment["PATH"] ?? "").split(separator: ":").filter { !$0.isEmpty }.map {
            URL(fileURLWithPath: String($0)).appendingPathComponent(executableName).path
        }
        if let explicit = environment[environmentVariable], !explicit.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: explicit) else {
                throw WebKitJourneyError.runnerNotFound(looked: ["\(environmentVariable)=\(explicit) (not an executable file)"])
            }
            return explicit
        }
        if let found = (candidates + onPath).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        throw WebKitJourneyError.runnerNotFound(looked: candidates + ["each directory of $PATH"])
    }

    /// Where ``locate(environment:executablePath:currentDirectory:)`` looks, in order, before `$PATH`.
    static func candidates(executablePath: String, currentDirectory: String) -> [String] {
        var paths: [String] = []
        let executable = URL(fileURLWithPath: executablePath, relativeTo: URL(fileURLWithPath: currentDirectory, isDirectory: true))
            .standardizedFileURL.resolvingSymlinksInPath()
        let beside = executable.deletingLastPathComponent()
        paths.append(beside.appendingPathComponent(executableName).path)
        // REPO/.build/debug/bridge-inspector or REPO/.build/<triple>/debug/bridge-inspector.
        var roots: [URL] = []
        var directory = beside
        for _ in 0..<4 {
            directory = directory.deletingLastPathComponent()
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(packagePath).path) { roots.append(directory) }
        }
        roots.append(URL(fileURLWithPath: currentDirectory, isDirectory: true))
        for root in roots {
            for configuration in ["release", "debug"] {
                paths.append(root.appendingPathComponent("\(packagePath)/.build/\(configuration)/\(executableName)").standardizedFileURL.path)
            }
        }
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }
}
