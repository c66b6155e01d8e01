#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport
import Testing
import SocketSupport

@Suite struct SocketDirectoryTests {
    @Test func ensureCreatesAPrivateDirectory() throws {
        try withTemporaryDirectory { base in
            let directory = SocketDirectory(path: "\(base)/d/")
            #expect(directory.path == "\(base)/d")
            try directory.ensure()
            let status = try #require(linkStatus(directory.path))
            #expect(status.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR))
            #expect(status.st_mode & 0o7777 == 0o700)
            #expect(status.st_uid == geteuid())
            // A second ensure accepts the directory it made.
            try directory.ensure()
        }
    }

    @Test func wrongModeIsRefusedWithTheFix() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/d"
            #expect(mkdir(path, 0o700) == 0)
            #expect(chmod(path, 0o755) == 0)
            let error = try #require(throws: SocketDirectoryError.self) {
                try SocketDirectory(path: path).ensure()
            }
            #expect(error == .insecureMode(path: path, mode: 0o755))
            #expect(error.description.contains("has mode 0755"))
            #expect(error.description.contains("chmod 700 \(path)"))
            // ensure() refuses; it does not silently repair somebody's directory.
            #expect(permissionBits(path) == 0o755)
        }
    }

    @Test func symbolicLinkIsRefused() throws {
        try withTemporaryDirectory { base in
            let real = "\(base)/real"
            let link = "\(base)/link"
            #expect(mkdir(real, 0o700) == 0)
            #expect(symlink(real, link) == 0)
            let error = try #require(throws: SocketDirectoryError.self) {
                try SocketDirectory(path: link).ensure()
            }
            #expect(error == .symbolicLink(path: link))
            #expect(error.description.contains("is a symbolic link"))
            #expect(error.description.contains("rm \(link)"))
        }
    }

    @Test func regularFileIsRefused() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/f"
            #expect(FileCreation.create(path))
            let error = try #require(throws: SocketDirectoryError.self) {
                try SocketDirectory(path: path).ensure()
            }
            #expect(error == .notADirectory(path: path, kind: "a regular file"))
        }
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
    func directoryOfAnotherUserIsRefused() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/d"
            #expect(mkdir(path, 0o700) == 0)
            #expect(chown(path, 4242, 4242) == 0)
            let error = try #require(throws: SocketDirectoryError.self) {
                try SocketDirectory(path: path).verify()
            }
            #expect(error == .wrongOwner(path: path, owner: 4242, expected: UInt32(geteuid())))
            #expect(error.description.contains("owned by uid 4242"))
        }
    }

    @Test func missingParentIsReportedAsCannotCreate() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/missing/d"
            let error = try #require(throws: SocketDirectoryError.self) {
                try SocketDirectory(path: path).ensure()
            }
            guard case .cannotCreate(let reported, let cause) = error else {
                Issue.record("expected cannotCreate, got \(error)")
                return
            }
            #expect(reported == path)
            #expect(cause.code == ENOENT)
        }
    }

    @Test func defaultDirectoryUsesAUsableRuntimeDirectory() throws {
        try withTemporaryDirectory { base in
            let uid = geteuid()
            #expect(chmod(base, 0o700) == 0)
            #expect(SocketDirectory(runtimeDirectory: base, userID: uid).path == "\(base)/bridge-inspector")
            #expect(SocketDirectory(runtimeDirectory: "\(base)/", userID: uid).path == "\(base)/bridge-inspector")
            let fallback = "/tmp/bridge-inspector-\(uid)"
            #expect(SocketDirectory(runtimeDirectory: nil, userID: uid).path == fallback)
            #expect(SocketDirectory(runtimeDirectory: "", userID: uid).path == fallback)
            #expect(SocketDirectory(runtimeDirectory: "\(base)/absent", userID: uid).path == fallback)
            #expect(SocketDirectory(runtimeDirectory: "relative/dir", userID: uid).path == fallback)
            // Owned by somebody else: not usable.
            #expect(SocketDirectory(runtimeDirectory: base, userID: uid &+ 1).path == "/tmp/bridge-inspector-\(uid &+ 1)")
            // So long that socket paths inside would not fit in sun_path: not usable.
            let deep = base + "/" + String(repeating: "x", count: 80)
            #expect(mkdir(deep, 0o700) == 0)
            #expect(SocketDirectory(runtimeDirectory: deep, userID: uid).path == fallback)
        }
    }

    @Test func locationPrefersTheExplicitSocket() {
        let environment = [
            SocketEnvironment.socketVariable: "/tmp/x.sock",
            SocketEnvironment.runtimeDirectoryVariable: "/nonexistent-runtime-dir",
        ]
        #expect(SocketEnvironment.socketVariable == "BRIDGE_INSPECTOR_SOCKET")
        #expect(SocketLocation.resolve(option: nil, environment: environment) == .explicit(path: "/tmp/x.sock"))
        #expect(SocketLocation.resolve(option: "/tmp/y.sock", environment: environment) == .explicit(path: "/tmp/y.sock"))
        let none = SocketLocation.resolve(option: "", environment: [SocketEnvironment.socketVariable: ""])
        #expect(none == .directory(SocketDirectory(path: "/tmp/bridge-inspector-\(geteuid())")))
    }
}

/// Creates regular files for tests.
enum FileCreation {
    static func create(_ path: String, contents: String = "x") -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(contents.utf8)
        return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
    }
}
