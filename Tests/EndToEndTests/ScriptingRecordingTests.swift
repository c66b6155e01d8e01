import AgentTesting
import Foundation
import TestSupport
import InspectorClient
import InspectorProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A short journey, then a long wait: a held capture, a pending request, a malformed message,
/// an answered request and an event. The test stops the host once the recorder has it all.
private let recordedScenario = """
    {"name": "recorded", "steps": [
      {"send": {"payload": {"action": "camera.document.capture"}, "correlationId": "cap-1", "timeoutMs": 600000}},
      {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-1", "timeoutMs": 600000}},
      {"sendRaw": "{oops"},
      {"send": {"payload": {"action": "device.info"}, "correlationId": "dev-1", "label": "dev"}},
      {"awaitResponse": {"label": "dev"}},
      {"event": {"name": "journey.step", "data": {"step": "done"}}},
      {"wait": 600000}
    ]}
    """

/// `record` and `open` against a real host: a recording reopened gives the state a live inspector
/// saw; damaged recordings load what is readable and are exit 5.
@Suite("Scripting: record and open", .serialized)
struct ScriptingRecordingTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("a recording written and reopened gives the same state as a live inspector; open --check says it is complete")
    func recordAndReopen() async throws {
        // The journey waits for the recorder, so the recording holds its traffic as events.
        let host = try await ScriptedHost(binary: binary, scenario: recordedScenario, extra: ["--wait-for-inspector"])
        defer { host.stop() }
        let file = host.directory.file("session.jsonl")
        let recorder = try host.start(["record", file], binary: binary)
        defer { recorder.kill() }
        let socket = host.socket
        // Whenever the recorder and the live session attach, before or during the journey, the
        // snapshot they start from plus the events after it must give the same state.
        // The recorder is the inspector the journey waits for; the live session attaches after
        // it (its snapshot plus events must end in the same state) and before the host can be
        // stopped. Only its reading waits on a thread of its own.
        #expect(await waitUntil(timeout: .seconds(20)) { host.process.standardError.contains("an inspector is attached; the journey starts") },
            "\(host.process.standardError)")
        let attached = ScriptingHandOver(try InspectorSession(socketPath: socket, subscribe: true, clientName: "scripting-tests live"))
        // The journey may be over before the live session is attached; the host is stopped only
        // once the agent has answered the live session's hello with its snapshot, or the
        // session would see the connection close before it holds any state.
        let snapshotApplied = ScriptingFlag()
        let liveSession = Task { try await scriptingFollow(attached) { snapshotApplied.set() } }
        #expect(await waitUntil(timeout: .seconds(30)) {
            ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains("journey.step")
        }, "the recorder never got the journey's last event: \(recorder.standardError)")
        #expect(await waitUntil(timeout: .seconds(30)) { snapshotApplied.isSet }, "the live session never got its snapshot")
        host.process.signal(SIGTERM)
        let live = try await liveSession.value
        #expect(await host.process.waitForExit() == 0, "\(host.process.standardError)")
        #expect(await recorder.waitForExit() == 0, "\(recorder.standardError)")
        #expect(recorder.standardError.contains("the host stopped; recorded"), "\(recorder.standardError)")

        let text = try String(contentsOfFile: file, encoding: .utf8)
        let lines = text.split(separator: "\n")
        try #require(lines.count > 5, "the recording holds the journey as events after its snapshot:\n\(text)")
        let header = try #require(scriptingJSON(lines[0]))
        #expect(header["kind"] as? String == "recording")
        #expect(header["version"] as? Int == 1)
        #expect(header["socket"] as? String == socket)
        #expect(header["client"] as? String == "bridge-inspector record")
        #expect(scriptingJSON(lines[1])?["kind"] as? String == "hello")
        #expect(scriptingJSON(lines[2])?["kind"] as? String == "snapshot")
        #expect(text.contains(#""raw":"{oops""#))

        let contents = Recording.load(from: URL(fileURLWithPath: file))
        #expect(contents.problem == nil)
        var reopened = LiveState()
        for frame in contents.frames { reopened.apply(frame, at: 0) }
        #expect(StateDigest(reopened) == StateDigest(live))
        #expect(reopened.pending.map(\.correlationId) == ["nfc-1"])
        #expect(reopened.slots.first { $0.kind == .document }?.activeRequest == "cap-1")
        #expect(reopened.log.contains { $0.correlationId == "dev-1" && $0.type == .response })
        #expect(reopened.lastError?.text?.hasPrefix("Failed to decode message") == true)

        let check = try await runCLI(["open", "--check", file], binary: binary)
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout.contains("host       demo (pid \(host.process.pid))"))
        #expect(check.stdout.contains("pending    1 at the end: nfc.read nfc-1"))
        #expect(check.stdout.contains("status     complete"))

        // Without a terminal the viewer cannot open: usage, with what to do instead.
        let noTerminal = try await runCLI(["open", file], binary: binary)
        #expect(noTerminal.status == 64, "\(noTerminal)")
        #expect(noTerminal.stderr.contains("needs a terminal"))
        #expect(noTerminal.stderr.contains("open --check"))

        // Cut off in its last line: what was readable is loaded, exit 5, the line is named.
        let cut = host.directory.file("cut.jsonl")
        let bytes = Array(text.utf8)
        try Data(bytes[0..<(bytes.count - 25)]).write(to: URL(fileURLWithPath: cut))
        let truncated = try await runCLI(["open", "--check", cut], binary: binary)
        #expect(truncated.status == 5, "\(truncated)")
        #expect(truncated.stdout.contains("BROKEN at line \(lines.count)"), "\(truncated)")
        #expect(truncated.stderr.contains("line \(lines.count): the last line is cut off"))
        let cutContents = Recording.load(from: URL(fileURLWithPath: cut))
        #expect(cutContents.frames.count == contents.frames.count - 1)

        // A damaged line in the middle.
        var damaged = lines.map(String.init)
        damaged[4] = String(damaged[4].dropLast(3))
        let corrupt = host.directory.file("corrupt.jsonl")
        try (damaged.joined(separator: "\n") + "\n").write(toFile: corrupt, atomically: true, encoding: .utf8)
        let broken = try await runCLI(["open", "--check", corrupt], binary: binary)
        #expect(broken.status == 5, "\(broken)")
        #expect(broken.stderr.contains("line 5: not a readable frame"), "\(broken)")
        #expect(Recording.load(from: URL(fileURLWithPath: corrupt)).frames.count == 3)

        let missing = try await runCLI(["open", "--check", host.directory.file("missing.jsonl")], binary: binary)
        #expect(missing.status == 5)
        #expect(missing.stderr.contains("no such file"))
        let notRecording = try await runCLI(["open", "--check", host.journeyLog], binary: binary)
        #expect(notRecording.status == 5, "\(notRecording)")
        #expect(notRecording.stderr.contains("not a bridge-inspector recording"))
    }

    @Test("a journey message at the host's exact depth limit is recorded and opens: open --check says complete, nothing after it is lost")
    func deepestMessageRecordsAndOpens() async throws {
        // The envelope is level 1, payload 2, data 3: 97 more levels make the host's limit of 100.
        let deep = String(repeating: "[", count: 97) + String(repeating: "]", count: 97)
        let raw = #"{\"version\":\"1.0\",\"correlationId\":\"deep-1\",\"type\":\"event\",\"timestamp\":1,\"payload\":{\"action\":\"journey.deep\",\"data\":{\"d\":\#(deep),\"n\":0e1}}}"#
        let scenario = """
            {"name": "deep", "steps": [
              {"sendRaw": "\(raw)"},
              {"event": {"name": "journey.step", "data": {"step": "after"}}},
              {"wait": 600000}
            ]}
            """
        let host = try await ScriptedHost(binary: binary, scenario: scenario, extra: ["--wait-for-inspector"])
        defer { host.stop() }
        let file = host.directory.file("deep.jsonl")
        let recorder = try host.start(["record", file], binary: binary)
        defer { recorder.kill() }
        #expect(await waitUntil(timeout: .seconds(30)) {
            ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains("journey.step")
        }, "the recorder never got the event after the deep message: \(recorder.standardError)")
        host.process.signal(SIGTERM)
        #expect(await host.process.waitForExit() == 0, "\(host.process.standardError)")
        #expect(await recorder.waitForExit() == 0, "\(recorder.standardError)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains(deep), "the host accepted the message and the agent forwarded it:\n\(text)")

        let check = try await runCLI(["open", "--check", file], binary: binary)
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout.contains("status     complete"), "\(check)")
        var reopened = LiveState()
        for frame in Recording.load(from: URL(fileURLWithPath: file)).frames { reopened.apply(frame, at: 0) }
        #expect(reopened.log.contains { $0.correlationId == "deep-1" })
        #expect(reopened.log.contains { $0.summary.contains("journey.step") }, "\(reopened.log.map(\.summary))")
    }

    @Test("record stops after --duration or --count, writes to standard output with -, and is exit 3 without a host")
    func limits() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario)
        defer { host.stop() }
        let file = host.directory.file("short.jsonl")
        let timed = try await host.run(["record", file, "--duration", "1"], binary: binary)
        #expect(timed.status == 0, "\(timed)")
        #expect(timed.stderr.contains("recorded 2 frames (0 events)") || timed.stderr.contains("events)"), "\(timed)")
        #expect(Recording.load(from: URL(fileURLWithPath: file)).problem == nil)

        let counted = try host.start(["record", "-", "--count", "1", "--quiet"], binary: binary)
        defer { counted.kill() }
        for _ in 0..<40 where counted.isRunning {
            _ = try await host.run(["event", "host.ping", "--quiet"], binary: binary)
            _ = await waitUntil(timeout: .milliseconds(500)) { !counted.isRunning }
        }
        #expect(await counted.waitForExit() == 0, "\(counted.standardError)")
        let streamed = counted.standardOutput.split(separator: "\n")
        #expect(streamed.count == 4, "header, hello, snapshot, one event: \(counted.standardOutput)")
        #expect(scriptingJSON(streamed.last ?? "")?["kind"] as? String == "event")
        #expect(counted.standardError.isEmpty)

        // A file that cannot be written: something unexpected failed (exit 1), and what to do.
        let unwritable = try await host.run(["record", host.directory.file("no-such-directory/x.jsonl"), "--count", "1"], binary: binary)
        #expect(unwritable.status == 1, "\(unwritable)")
        #expect(unwritable.stderr.contains("cannot write the recording"), "\(unwritable)")
        #expect(unwritable.stderr.contains("hint: choose a file in a directory you can write to"), "\(unwritable)")

        let unfinishedPath = host.directory.file("unfinished.jsonl")
        let unfinished = try host.start(["record", unfinishedPath, "--count", "1000"], binary: binary)
        defer { unfinished.kill() }
        // Attached once it has written its first line (the hello and snapshot): only then does
        // stopping the host test "the host went away while recording".
        let attached = await waitUntil(timeout: .seconds(30)) {
            ((try? FileManager.default.attributesOfItem(atPath: unfinishedPath)[.size]) as? Int ?? 0) > 0
        }
        #expect(attached, "record never wrote to \(unfinishedPath): \(unfinished.standardError)")
        host.process.signal(SIGTERM)
        #expect(await unfinished.waitForExit() == 3, "\(unfinished.standardError)")
        #expect(unfinished.standardError.contains("went away"))
        #expect(Recording.load(from: URL(fileURLWithPath: unfinishedPath)).problem == nil)

        _ = await host.process.waitForExit()
        let nowhere = host.directory.file("nowhere.jsonl")
        let noHost = try await host.run(["record", nowhere], binary: binary)
        #expect(noHost.status == 3, "\(noHost)")
        #expect(!FileManager.default.fileExists(atPath: nowhere), "no file is made when there is no host")
    }
}
