#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import BridgeCore
import Foundation
@testable import InspectorAgent
import SocketSupport
import TestSupport
import Testing
import ThreadSupport

/// Whether the tests run as root with the tools to act as another user.
private let canActAsAnotherUser: Bool = geteuid() == 0
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

@MainActor
@Suite("Socket placement and lifecycle")
struct SocketLifecycleTests {
    @Test("the socket exists (mode 0600) while the agent runs and is removed on stop; clients see the end")
    func removedOnStop() async throws {
        let fixture = try Fixture()
        defer { removeDirectory(fixture.directory) }
        #expect(fixture.agent.socketPath == fixture.socketPath)
        #expect(isSocketFile(fixture.socketPath))
        #expect(linkStatus(fixture.socketPath).map { $0.st_mode & 0o777 } == 0o600)
        let (client, _, _) = try await fixture.client()

        fixture.agent.stop()
        #expect(!isSocketFile(fixture.socketPath))
        #expect(linkStatus(fixture.socketPath) == nil)
        #expect(try await client.readUntilClosed().isEmpty)
        #expect(throws: SocketSystemError.self) { _ = try RawClient.connect(fixture.socketPath) }
        fixture.agent.stop()  // a second stop does nothing
    }

    @Test("an agent nobody keeps stops as stop() does: socket removed, host no longer observed")
    func droppedAgentStops() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let host = BridgeHost(hostVersion: "1.0.0")
        // The agent observes a native host through a package observer.
        let observersBefore = host.observers.count + host.packageObservers.count
        let path = directory + "/dropped.sock"
        do {
            let agent = try host.startInspector(name: "dropped", socketPath: path)
            #expect(isSocketFile(agent.socketPath))
            #expect(host.observers.count + host.packageObservers.count == observersBefore + 1)
        }
        #expect(linkStatus(path) == nil)
        // Off the main thread the observer is removed on the main actor's next turn.
        #expect(await eventually { host.observers.count + host.packageObservers.count == observersBefore })
    }

    @Test("a stale socket left by a crashed host is cleaned up and served")
    func staleSocket() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = directory + "/a.sock"
        try makeStaleSocket(at: path)
        let host = BridgeHost(hostVersion: "1.0")
        let agent = try host.startInspector(name: "after-crash", socketPath: path)
        defer { agent.stop() }
        #expect(isSocketFile(path))
        let client = try RawClient.connect(path)
        let hello = try await client.next()
        #expect(hello.json["host"]?["name"]?.stringValue == "after-crash")
    }

    @Test("a live socket is never taken over: the second host fails clearly, the first goes on serving")
    func liveSocketNotTakenOver() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let inode = try #require(linkStatus(fixture.socketPath)).st_ino
        let other = BridgeHost(hostVersion: "9.9")
        do {
            _ = try other.startInspector(name: "intruder", socketPath: fixture.socketPath)
            Issue.record("a second agent took over a live socket")
        } catch let error as UnixListenerError {
            #expect(error == .alreadyServing(path: fixture.socketPath))
            #expect(error.description.contains("already serving"))
        }
        #expect(linkStatus(fixture.socketPath)?.st_ino == inode)
        let (client, hello, _) = try await fixture.client()
        #expect(hello.json["host"]?["name"]?.stringValue == "test-host")
        #expect(try await client.command("c", "ping").reply.ok == true)
    }

    @Test("a path longer than sun_path is refused with a clear error and nothing is created")
    func pathTooLong() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = directory + "/" + String(repeating: "s", count: 120) + ".sock"
        let host = BridgeHost(hostVersion: "1.0")
        do {
            _ = try host.startInspector(name: "long", socketPath: path)
            Issue.record("a too-long path was accepted")
        } catch let error as UnixSocketAddressError {
            guard case .pathTooLong(_, let byteCount, let limit) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(byteCount == path.utf8.count)
            #expect(limit == UnixSocketAddress.maximumPathByteCount)
            #expect(error.description.contains("at most \(limit) bytes"))
            #expect(error.description.contains("BRIDGE_INSPECTOR_SOCKET"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("in the per-user directory: created 0700, socket named <name>.<pid>.sock, removed on stop")
    func perUserDirectory() async throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let directory = SocketDirectory(path: parent + "/bridge-inspector")
        let host = BridgeHost(hostVersion: "1.0")
        let agent = try InspectorAgent(host: host, name: "my app/1", location: .directory(directory), limits: Fixture.limits())
        let pid = ProcessInfo.processInfo.processIdentifier
        #expect(agent.socketPath == directory.path + "/my_app_1.\(pid).sock")
        #expect(linkStatus(directory.path).map { $0.st_mode & 0o777 } == 0o700)
        #expect(isSocketFile(agent.socketPath))
        #expect(agent.hostInfo.name == "my app/1")
        let client = try RawClient.connect(agent.socketPath)
        #expect(try await client.next().json["host"]?["name"]?.stringValue == "my app/1")
        agent.stop()
        #expect(!isSocketFile(agent.socketPath))
        #expect(linkStatus(directory.path) != nil)
    }

    /// Runs in a test process of its own: SwiftNIO (used by other suites) ignores SIGPIPE
    /// process-wide, and other tests may change the umask while this one looks.
    @Test("the agent changes no process-wide state: SIGPIPE, umask and working directory stay as they were")
    func noProcessWideChanges() async throws {
        guard IsolatedTestRun.isIsolated else {
            let run = try await IsolatedTestRun.rerun(filter: "noProcessWideChanges")
            #expect(run.passed, "the isolated run failed:\n\(run.output)")
            return
        }
        let sigpipeBefore = sigpipeHasDefaultDisposition()
        let umaskBefore = currentUmask()
        let directoryBefore = FileManager.default.currentDirectoryPath
        #expect(sigpipeBefore, "the test process itself should leave SIGPIPE at its default")

        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let host = BridgeHost(hostVersion: "1.0")
        let agent = try InspectorAgent(
            host: host, name: "quiet", location: .directory(SocketDirectory(path: parent + "/d")), limits: Fixture.limits())
        // Writes to peers that are gone: with a process-wide SIGPIPE default, a missing
        // per-socket suppression would kill the test process here.
        for index in 0..<50 {
            host.receive(text: messageText(type: "event", action: "fill", id: "f-\(index)", data: #"{"pad":"\#(String(repeating: "p", count: 4000))"}"#))
        }
        for _ in 0..<5 {
            let client = try RawClient.connect(agent.socketPath)
            _ = try await client.next()
            try client.sendHello()
            for index in 0..<5 { try client.sendCommand("s\(index)", "snapshot") }
            client.close()
        }
        #expect(await eventually { agent.clientCount == 0 })
        agent.stop()

        #expect(sigpipeHasDefaultDisposition() == sigpipeBefore)
        #expect(currentUmask() == umaskBefore)
        #expect(FileManager.default.currentDirectoryPath == directoryBefore)
    }

    @Test("a socket directory with group or other permissions is refused, with the chmod that fixes it")
    func wrongMode() throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let path = parent + "/sockets"
        #expect(mkdir(path, 0o700) == 0)
        #expect(chmod(path, 0o755) == 0)
        let host = BridgeHost(hostVersion: "1.0")
        do {
            _ = try InspectorAgent(host: host, name: "h", location: .directory(SocketDirectory(path: path)), limits: Fixture.limits())
            Issue.record("an insecure directory was accepted")
        } catch let error as SocketDirectoryError {
            #expect(error == .insecureMode(path: path, mode: 0o755))
            #expect(error.description.contains("chmod 700 \(path)"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
    }

    @Test("a socket directory owned by another user is refused")
    func wrongOwner() throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let path: String
        if geteuid() == 0 {
            path = parent + "/sockets"
            #expect(mkdir(path, 0o700) == 0)
            #expect(chown(path, 65534, 65534) == 0)
        } else {
            path = "/"  // owned by root, never by a test user
        }
        let host = BridgeHost(hostVersion: "1.0")
        do {
            _ = try InspectorAgent(host: host, name: "h", location: .directory(SocketDirectory(path: path)), limits: Fixture.limits())
            Issue.record("a directory owned by someone else was accepted")
        } catch let error as SocketDirectoryError {
            guard case .wrongOwner(_, let owner, let expected) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(owner != expected)
            #expect(expected == UInt32(geteuid()))
            #expect(error.description.contains("owned by uid \(owner)"))
        }
        if geteuid() == 0 {
            #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
        }
    }

    @Test("a socket directory that is a symbolic link is refused")
    func symbolicLinkDirectory() throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let real = parent + "/real"
        let link = parent + "/link"
        #expect(mkdir(real, 0o700) == 0)
        #expect(symlink(real, link) == 0)
        let host = BridgeHost(hostVersion: "1.0")
        #expect(throws: SocketDirectoryError.symbolicLink(path: link)) {
            _ = try InspectorAgent(host: host, name: "h", location: .directory(SocketDirectory(path: link)), limits: Fixture.limits())
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: real).isEmpty)
    }

    @Test("BRIDGE_INSPECTOR_SOCKET names the socket explicitly; an explicit option wins over it")
    func environmentVariable() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let fromEnvironment = directory + "/env.sock"
        let fromOption = directory + "/opt.sock"
        let environment = [SocketEnvironment.socketVariable: fromEnvironment, "XDG_RUNTIME_DIR": "/nonexistent"]
        #expect(SocketLocation.resolve(option: nil, environment: environment) == .explicit(path: fromEnvironment))
        #expect(SocketLocation.resolve(option: fromOption, environment: environment) == .explicit(path: fromOption))
        #expect(SocketLocation.resolve(option: nil, environment: [SocketEnvironment.socketVariable: ""]) != .explicit(path: ""))

        let host = BridgeHost(hostVersion: "1.0")
        let location = SocketLocation.resolve(option: nil, environment: environment)
        let agent = try InspectorAgent(host: host, name: "env", location: location, limits: Fixture.limits())
        defer { agent.stop() }
        #expect(agent.socketPath == fromEnvironment)
        let client = try RawClient.connect(fromEnvironment)
        #expect(try await client.next().kind == "hello")
    }

    @Test("a peer running as another user is refused before it sees anything", .enabled(if: canActAsAnotherUser))
    func foreignPeerRefused() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        // Open the way for user nobody (the directory normally keeps everyone else out).
        #expect(chmod(fixture.directory, 0o711) == 0)
        #expect(chmod(fixture.socketPath, 0o666) == 0)
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(10)
            s.connect(sys.argv[1])
            data = b''
            try:
                s.sendall(b'{"kind":"hello","protocol":1,"client":"intruder","subscribe":true}\\n')
            except OSError:
                pass  # the agent may already have closed the connection
            try:
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            except OSError:
                pass
            print(len(data))
            """
        let path = fixture.socketPath
        let output = try await onThread { () throws -> String in
            // Standard error goes where standard output goes (descriptor 1, set up first).
            let process = try ChildProcess(
                executable: "/usr/bin/setpriv",
                arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, path],
                standardOutput: .pipe, standardError: .descriptor(1), newProcessGroup: true)
            let data = process.standardOutput?.readDataToEndOfFile() ?? Data()
            _ = process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(output == "0")
        #expect(fixture.agent.clientCount == 0)
        // The same user still gets in.
        let (client, _, _) = try await fixture.client()
        #expect(try await client.command("c", "ping").reply.ok == true)
    }
}
