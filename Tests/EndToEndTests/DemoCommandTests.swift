import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `bridge-inspector demo` starts its host as a child and never leaves it running.
@Suite("bridge-inspector demo", .serialized)
struct DemoCommandTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("in a terminal, demo opens the inspector on its own host; q quits and takes the host down")
    func opensTheInspector() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("d.sock")
        let terminal = try TmuxSession([binary, "demo", "--socket", socket])
        defer {
            terminal.kill()
            for pid in hostProcesses(mentioning: socket) { sendSignal(SIGKILL, to: pid) }
        }
        // Connected, live traffic, the document capture held BUSY, a pending request. Each is
        // waited for on its own: the early capability.query can scroll out of the log before a
        // slow machine has drawn the rest. The bound is for a loaded machine (60 s was passed).
        let screen = await terminal.waitForEach("connected", "capability.query", "BUSY", "Pending", timeout: .seconds(240))
        #expect(screen?.contains("demo (pid") == true, "\(screen ?? "")")
        #expect(!hostProcesses(mentioning: socket).isEmpty)
        try terminal.press("q")
        #expect(await terminal.waitFor("[exited 0]") != nil)
        #expect(await waitUntil(timeout: .seconds(60)) { hostProcesses(mentioning: socket).isEmpty })
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test("demo --inspect-via public-api shows the demo as a GBGBridge app is seen: the same panes, and the path named")
    func publicAPIPath() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("d.sock")
        let terminal = try TmuxSession([binary, "demo", "--socket", socket, "--inspect-via", "public-api"])
        defer {
            terminal.kill()
            for pid in hostProcesses(mentioning: socket) { sendSignal(SIGKILL, to: pid) }
        }
        // Sent messages (the BUSY response) come from the page-script stand-in, slots from polling.
        let screen = await terminal.waitForEach("via GBGBridge public API", "connected", "capability.query", "BUSY", "Pending")
        #expect(screen?.contains("demo (pid") == true, "\(screen ?? "")")
        try terminal.press("q")
        #expect(await terminal.waitFor("[exited 0]") != nil)
        #expect(await waitUntil(timeout: .seconds(60)) { hostProcesses(mentioning: socket).isEmpty })
    }

    @Test("SIGTERM to demo stops its child host and removes the socket", arguments: [SIGTERM, SIGINT])
    func signalStopsChild(signal: Int32) async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("d.sock")
        let demo = try BinaryProcess(["demo", "--socket", socket], binary: binary)
        defer {
            demo.kill()
            for pid in hostProcesses(mentioning: socket) { sendSignal(SIGKILL, to: pid) }
        }
        // The child serves the socket, and the demo (with no terminal) prints its live traffic.
        #expect(await waitUntil(timeout: .seconds(20)) { demo.standardOutput.contains("capability.query") }, "\(demo.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: socket))
        #expect(!hostProcesses(mentioning: socket).isEmpty)
        #expect(demo.isRunning)
        demo.signal(signal)
        #expect(await demo.waitForExit() != nil)
        #expect(await waitUntil(timeout: .seconds(60)) { hostProcesses(mentioning: socket).isEmpty })
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test("a demo killed with SIGKILL still takes its child host down (the child sees its stdin close)")
    func killedDemoStopsChild() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("d.sock")
        let demo = try BinaryProcess(["demo", "--socket", socket], binary: binary)
        defer {
            demo.kill()
            for pid in hostProcesses(mentioning: socket) { sendSignal(SIGKILL, to: pid) }
        }
        let started = await waitUntil(timeout: .seconds(20)) { !hostProcesses(mentioning: socket).isEmpty && FileManager.default.fileExists(atPath: socket) }
        try #require(started && demo.isRunning, "\(demo.standardError)")
        demo.signal(SIGKILL)
        #expect(await demo.waitForExit() != nil)
        #expect(await waitUntil(timeout: .seconds(60)) { hostProcesses(mentioning: socket).isEmpty })
        #expect(await waitUntil(timeout: .seconds(5)) { !FileManager.default.fileExists(atPath: socket) })
    }
}
