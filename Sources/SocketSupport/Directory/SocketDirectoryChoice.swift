#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The kind of system the socket directory is chosen for.
public enum SocketPlatform: Sendable, Hashable {
    /// macOS and the iOS Simulator: an app in the Simulator is a Mac process of the same user,
    /// but its `TMPDIR` (and any `XDG_RUNTIME_DIR`) is private to it, so both sides use `/tmp`.
    case apple
    /// Linux and other systems: `XDG_RUNTIME_DIR` when usable.
    case other

    /// The platform this program runs on.
    public static var current: SocketPlatform {
        #if canImport(Darwin)
        return .apple
        #else
        return .other
        #endif
    }

    /// The longest socket path the platform takes: `sun_path` less its terminating NUL
    /// (104 bytes on Apple platforms, 108 on Linux).
    public var maximumSocketPathBytes: Int {
        switch self {
        case .apple: return 103
        case .other: return 107
        }
    }
}

/// Which directory holds the sockets, and why: the one decision an agent (in an app, perhaps
/// in the iOS Simulator) and a client (in a Mac or Linux shell) must make the same way.
///
/// It depends only on the platform, the environment, the user id and (on Linux) whether
/// `XDG_RUNTIME_DIR` is usable, so every branch is tested on any system:
///
/// 1. `BRIDGE_INSPECTOR_SOCKET_DIR`, when set, on every platform (set it in the Xcode scheme and
///    in the shell to the same absolute path);
/// 2. on Apple platforms `/tmp/bridge-inspector-<uid>`, whatever `XDG_RUNTIME_DIR` and `TMPDIR`
///    say (a Simulator app's temporary directory is inside its device container, far past the
///    104 bytes `sun_path` holds, and the Mac shell could not compute it);
/// 3. elsewhere `$XDG_RUNTIME_DIR/bridge-inspector` when usable, else `/tmp/bridge-inspector-<uid>`.
public struct SocketDirectoryChoice: Sendable, Hashable {
    /// Why the directory was chosen.
    public enum Source: Sendable, Hashable {
        /// `BRIDGE_INSPECTOR_SOCKET_DIR`.
        case override
        /// `$XDG_RUNTIME_DIR/bridge-inspector`.
        case runtimeDirectory
        /// `/tmp/bridge-inspector-<uid>`.
        case temporary
    }

    /// The directory.
    public var directory: SocketDirectory
    /// Why it was chosen.
    public var source: Source
    /// What is wrong with an override (not absolute, or too long for the longest socket name),
    /// with what to do; `nil` when it is usable. The override is still used, so both sides agree
    /// and binding fails with this explanation instead of silently using another directory.
    public var problem: String?

    /// Chooses the directory (see the type's summary). `isUsableRuntimeDirectory` checks an
    /// `XDG_RUNTIME_DIR` value on the file system; tests pass their own.
    public static func choose(
        platform: SocketPlatform, environment: [String: String], userID: uid_t,
        isUsableRuntimeDirectory: (String) -> Bool
    ) -> SocketDirectoryChoice {
        if let override = environment[SocketEnvironment.directoryVariable], !override.isEmpty {
            let directory = SocketDirectory(path: override)
            return SocketDirectoryChoice(directory: directory, source: .override, problem: overrideProblem(directory.path, platform: platform))
        }
        if platform == .other, let runtime = environment[SocketEnvironment.runtimeDirectoryVariable], !runtime.isEmpty,
            isUsableRuntimeDirectory(runtime)
        {
            let base = SocketDirectory(path: runtime).path
            return SocketDirectoryChoice(
                directory: SocketDirectory(path: base == "/" ? "/\(SocketDirectory.appName)" : "\(base)/\(SocketDirectory.appName)"),
                source: .runtimeDirectory, problem: nil)
        }
        return SocketDirectoryChoice(directory: SocketDirectory(path: "/tmp/\(SocketDirectory.appName)-\(userID)"), source: .temporary, problem: nil)
    }

    /// The choice for this process: its platform, environment and effective user id.
    public static func current() -> SocketDirectoryChoice {
        var environment: [String: String] = [:]
        for name in [SocketEnvironment.directoryVariable, SocketEnvironment.runtimeDirectoryVariable] {
            environment[name] = SocketEnvironment.value(of: name)
        }
        let userID = geteuid()
        return choose(platform: .current, environment: environment, userID: userID) {
            SocketDirectory.isUsableRuntimeDirectory($0, userID: userID)
        }
    }

    /// The longest socket path in `directory`: a maximal name and a ten-digit pid.
    public static func longestSocketPathBytes(in directory: String) -> Int {
        (directory == "/" ? 0 : directory.utf8.count) + 1 + SocketName.maximumFileNameLength
    }

    private static func overrideProblem(_ path: String, platform: SocketPlatform) -> String? {
        let variable = SocketEnvironment.directoryVariable
        guard path.hasPrefix("/") else {
            return "\(variable) must be an absolute path (got \(path.debugDescription)); set it to the same absolute directory in the app's scheme and in the shell"
        }
        let longest = longestSocketPathBytes(in: path)
        guard longest <= platform.maximumSocketPathBytes else {
            return "\(variable) is too long: a socket in it can take \(longest) bytes, and this platform allows \(platform.maximumSocketPathBytes); choose a directory of at most \(platform.maximumSocketPathBytes - longest + path.utf8.count) bytes, such as /tmp/bi"
        }
        return nil
    }
}
