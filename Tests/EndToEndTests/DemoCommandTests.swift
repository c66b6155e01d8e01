import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `bridge-inspector demo` starts its host as a child and never leaves it running.
@Suite("bridge-inspector demo", .serialized)
struct DemoCommandTests {
    let binary: String

    init() throws {
        binary = try #require(bridgeInspectorBinary(), "build the bridge-inspector product first (swift build)")
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
        // The child serves the socket (unless the attach ended the demo already).
        _ = await poll(timeout: .seconds(20)) { FileManager.default.fileExists(atPath: socket) || !demo.isRunning }
        #expect(!hostProcesses(mentioning: socket).isEmpty || !demo.isRunning)
        demo.signal(signal)
        #expect(await demo.waitForExit() != nil)
        #expect(await poll(timeout: .seconds(10)) { hostProcesses(mentioning: socket).isEmpty })
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
        let started = await poll(timeout: .seconds(20)) { !hostProcesses(mentioning: socket).isEmpty && FileManager.default.fileExists(atPath: socket) }
        try #require(started || !demo.isRunning)
        demo.signal(SIGKILL)
        #expect(await demo.waitForExit() != nil)
        #expect(await poll(timeout: .seconds(10)) { hostProcesses(mentioning: socket).isEmpty })
        #expect(await poll(timeout: .seconds(5)) { !FileManager.default.fileExists(atPath: socket) })
    }
}
