import SocketSupport
import Testing

/// Where sockets live, decided the same way by an app in the iOS Simulator and a Mac shell
/// (issue 12, "the Simulator socket directory"): every branch of the pure decision, on any system.
@Suite("Choosing the socket directory")
struct SocketDirectoryChoiceTests {
    private let usable: (String) -> Bool = { _ in true }
    private let unusable: (String) -> Bool = { _ in false }
    /// A Simulator app's temporary directory: inside the device container, far past sun_path.
    private let simulatorTemporary = "/Users/someone/Library/Developer/CoreSimulator/Devices/0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9/data/Containers/Data/Application/F9E8D7C6-B5A4-9382-7160-5F4E3D2C1B0A/tmp/"

    @Test("Apple platforms: /tmp/bridge-inspector-<uid>, whatever XDG_RUNTIME_DIR and TMPDIR say")
    func appleIgnoresRuntimeAndTemporaryDirectories() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/501", "TMPDIR": simulatorTemporary]
        let choice = SocketDirectoryChoice.choose(platform: .apple, environment: environment, userID: 501, isUsableRuntimeDirectory: usable)
        #expect(choice.directory.path == "/tmp/bridge-inspector-501")
        #expect(choice.source == .temporary)
        #expect(choice.problem == nil)
        // The app in the Simulator (its own TMPDIR) and the shell (none) agree.
        let shell = SocketDirectoryChoice.choose(platform: .apple, environment: [:], userID: 501, isUsableRuntimeDirectory: unusable)
        #expect(shell.directory == choice.directory)
    }

    @Test("Apple platforms: the longest socket path (a 40-byte name, a 10-digit pid, the largest uid) fits in 104 bytes with its NUL")
    func appleLongestPathFits() {
        let choice = SocketDirectoryChoice.choose(platform: .apple, environment: [:], userID: .max, isUsableRuntimeDirectory: usable)
        let name = SocketName(name: String(repeating: "n", count: 200), pid: .max)
        let path = choice.directory.socketPath(for: name)
        #expect(name.name.utf8.count == SocketName.maximumNameLength)
        #expect(path.utf8.count == SocketDirectoryChoice.longestSocketPathBytes(in: choice.directory.path))
        #expect(path.utf8.count + 1 <= 104, "\(path) is \(path.utf8.count) bytes")
        #expect(SocketPlatform.apple.maximumSocketPathBytes == 103)
    }

    @Test("Linux: XDG_RUNTIME_DIR/bridge-inspector when usable, else /tmp/bridge-inspector-<uid>")
    func linuxRuntimeDirectory() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/1000/"]
        let usableChoice = SocketDirectoryChoice.choose(platform: .other, environment: environment, userID: 1000, isUsableRuntimeDirectory: usable)
        #expect(usableChoice.directory.path == "/run/user/1000/bridge-inspector")
        #expect(usableChoice.source == .runtimeDirectory)
        let fallback = SocketDirectoryChoice.choose(platform: .other, environment: environment, userID: 1000, isUsableRuntimeDirectory: unusable)
        #expect(fallback.directory.path == "/tmp/bridge-inspector-1000")
        #expect(fallback.source == .temporary)
        let unset = SocketDirectoryChoice.choose(platform: .other, environment: ["XDG_RUNTIME_DIR": ""], userID: 7, isUsableRuntimeDirectory: usable)
        #expect(unset.directory.path == "/tmp/bridge-inspector-7")
        let root = SocketDirectoryChoice.choose(platform: .other, environment: ["XDG_RUNTIME_DIR": "/"], userID: 7, isUsableRuntimeDirectory: usable)
        #expect(root.directory.path == "/bridge-inspector")
        #expect(SocketPlatform.other.maximumSocketPathBytes == 107)
    }

    @Test("BRIDGE_INSPECTOR_SOCKET_DIR wins on both platforms, over XDG_RUNTIME_DIR too", arguments: [SocketPlatform.apple, .other])
    func overrideWins(platform: SocketPlatform) {
        let environment = ["BRIDGE_INSPECTOR_SOCKET_DIR": "/tmp/bi/", "XDG_RUNTIME_DIR": "/run/user/501"]
        let choice = SocketDirectoryChoice.choose(platform: platform, environment: environment, userID: 501, isUsableRuntimeDirectory: usable)
        #expect(choice.directory.path == "/tmp/bi")
        #expect(choice.source == .override)
        #expect(choice.problem == nil)
        let empty = SocketDirectoryChoice.choose(platform: platform, environment: ["BRIDGE_INSPECTOR_SOCKET_DIR": ""], userID: 501, isUsableRuntimeDirectory: unusable)
        #expect(empty.source == .temporary)
    }

    @Test("An override that is relative, or too long for the longest socket name, is kept (both sides agree) with a problem that says what to do")
    func overrideProblems() {
        let relative = SocketDirectoryChoice.choose(platform: .apple, environment: ["BRIDGE_INSPECTOR_SOCKET_DIR": "sockets"], userID: 501, isUsableRuntimeDirectory: usable)
        #expect(relative.directory.path == "sockets")
        #expect(relative.problem?.contains("must be an absolute path") == true)

        let tooLong = SocketDirectoryChoice.choose(platform: .apple, environment: ["BRIDGE_INSPECTOR_SOCKET_DIR": simulatorTemporary], userID: 501, isUsableRuntimeDirectory: usable)
        let problem = tooLong.problem ?? ""
        #expect(problem.contains("BRIDGE_INSPECTOR_SOCKET_DIR is too long"), "\(problem)")
        #expect(problem.contains("this platform allows 103"), "\(problem)")
        #expect(problem.contains("at most 46 bytes"), "\(problem)")

        // Exactly at the limit: fine on Apple platforms; 4 bytes more are fine only on Linux.
        let limit = "/" + String(repeating: "d", count: 103 - 1 - SocketName.maximumFileNameLength - 1)
        #expect(SocketDirectoryChoice.longestSocketPathBytes(in: limit) == 103)
        #expect(SocketDirectoryChoice.choose(platform: .apple, environment: ["BRIDGE_INSPECTOR_SOCKET_DIR": limit], userID: 1, isUsableRuntimeDirectory: usable).problem == nil)
        let longer = limit + "dddd"
        #expect(SocketDirectoryChoice.choose(platform: .apple, environment: ["BRIDGE_INSPECTOR_SOCKET_DIR": longer], userID: 1, isUsableRuntimeDirectory: usable).problem != nil)
        #expect(SocketDirectoryChoice.choose(platform: .other, environment: ["BRIDGE_INSPECTOR_SOCKET_DIR": longer], userID: 1, isUsableRuntimeDirectory: usable).problem == nil)
    }

    @Test("The platform's limit is the one UnixSocketAddress enforces here")
    func limitMatchesThisPlatform() {
        #expect(SocketPlatform.current.maximumSocketPathBytes == UnixSocketAddress.maximumPathByteCount)
    }

    @Test("SocketLocation reads the override from the environment it is given")
    func locationUsesTheOverride() {
        let location = SocketLocation.resolve(option: nil, environment: ["BRIDGE_INSPECTOR_SOCKET_DIR": "/tmp/bi-x"])
        #expect(location == .directory(SocketDirectory(path: "/tmp/bi-x")))
    }
}
