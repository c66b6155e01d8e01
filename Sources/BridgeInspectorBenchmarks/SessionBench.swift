import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import ThreadSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sessions as tests (issue 28) on a long session: reading a recording, reading it as a
/// transcript, diffing two of them, redacting it, and `rerun` of the whole session into a real
/// host process over its socket.
///
/// The recording is the benchmark's workload (``Workload``: three journey events for every
/// `device.info` request, each request answered), written as the agent writes frames, so a
/// 100,000-message session is 80,000 journey messages and 20,000 answers.
enum SessionBench {
    struct Result {
        var messages = 0
        var fileBytes = 0
        var loadMs = 0.0
        var transcriptMs = 0.0
        var diffSameMs = 0.0
        var diffChangedMs = 0.0
        var differencesFound = 0
        var differencesMade = 0
        var redactMs = 0.0
        /// `nil` when the `bridge-inspector` binary is not built beside the benchmark.
        var rerun: Rerun?

        struct Rerun {
            var journeyMessages = 0
            var seconds = 0.0
            var exitStatus: Int32 = 0
            var summary = ""
        }

        func add(to report: inout Report) {
            var sessions = Report()
            sessions.set("messages", messages)
            sessions.set("file_bytes", fileBytes)
            sessions.set("load_ms", loadMs)
            sessions.set("transcript_ms", transcriptMs)
            sessions.set("diff_same_ms", diffSameMs)
            sessions.set("diff_changed_ms", diffChangedMs)
            sessions.set("differences_made", differencesMade)
            sessions.set("differences_found", differencesFound)
            sessions.set("redact_ms", redactMs)
            sessions.set("redact_mb_per_second", Double(fileBytes) / 1_048_576 / max(redactMs / 1000, 1e-9))
            if let rerun {
                sessions.set("rerun_journey_messages", rerun.journeyMessages)
                sessions.set("rerun_seconds", rerun.seconds)
                sessions.set("rerun_messages_per_second", Double(rerun.journeyMessages) / max(rerun.seconds, 1e-9))
                sessions.set("rerun_exit_status", Int(rerun.exitStatus))
            }
            report.set("sessions", sessions)
        }

        func add(to table: inout Table) {
            table.title("Sessions as tests: a \(Format.count(Double(messages)))-message recording (\(Format.count(Double(fileBytes) / 1024)) KiB)")
            table.row("read it (Recording.load)", "\(Format.fixed(loadMs, 0)) ms")
            table.row("read it as a transcript (LiveState, SessionTranscript)", "\(Format.fixed(transcriptMs, 0)) ms")
            table.row("diff it against a rerun of itself (ids, times differ)", "\(Format.fixed(diffSameMs, 0)) ms", "no differences")
            table.row("diff it against a copy with \(differencesMade) answers changed", "\(Format.fixed(diffChangedMs, 0)) ms", "\(differencesFound) differences found")
            table.row("redact it (redact)", "\(Format.fixed(redactMs, 0)) ms",
                      String(format: "%.0f MiB/s", Double(fileBytes) / 1_048_576 / max(redactMs / 1000, 1e-9)))
            if let rerun {
                table.row("rerun it into a real host (bridge-inspector rerun)", "\(Format.fixed(rerun.seconds, 1)) s",
                          String(format: "%.0f journey messages/s, exit %d", Double(rerun.journeyMessages) / max(rerun.seconds, 1e-9), rerun.exitStatus))
            } else {
                table.row("rerun it into a real host", "not run", "build bridge-inspector first: swift build -c release")
            }
        }
    }

    static let startTime: Double = 1_732_240_000_000

    /// Measures everything on a session of `count` messages in `scratch`.
    static func run(count: Int, scratch: ScratchDirectory) async throws -> Result {
        var result = Result()
        let templates = try TUIBench.Templates()
        let encoder = JSONEncoding.compact
        func recording(idPrefix: String, changeEvery: Int?) throws -> (Data, Int) {
            var file = Data()
            file.append(contentsOf: Recording.Header(socket: "/tmp/bench.sock", startedAt: startTime).line)
            file.append(0x0A)
            file.append(contentsOf: Array(snapshotLine.utf8))
            file.append(0x0A)
            var seq = 1
            var index = 0
            var changed = 0
            while seq <= count {
                var traffic = templates.traffic(workloadIndex: index, seq: seq, time: startTime + Double(seq))
                traffic.message.correlationId = "\(idPrefix)-\(index)"
                file.append(contentsOf: try TUIBench.frameLine(traffic, encoder: encoder))
                file.append(0x0A)
                seq += 1
                if Workload.isRequest(index), seq <= count {
                    var response = templates.response(workloadIndex: index, seq: seq, time: startTime + Double(seq))
                    response.message.correlationId = "\(idPrefix)-\(index)"
                    if let changeEvery, index % changeEvery == changeEvery - 1 {
                        response.message.payload.data?["os"] = .string("Linux \(index)")
                        changed += 1
                    }
                    file.append(contentsOf: try TUIBench.frameLine(response, encoder: encoder))
                    file.append(0x0A)
                    seq += 1
                }
                index += 1
            }
            return (file, changed)
        }
        BridgeInspectorBench.progress("sessions: writing a \(count)-message recording")
        let (original, _) = try recording(idPrefix: "m", changeEvery: nil)
        let (other, _) = try recording(idPrefix: "r", changeEvery: nil)
        // Ten changed answers spread over the session.
        let requests = max(1, Workload.requestCount(count))
        let (changedFile, made) = try recording(idPrefix: "c", changeEvery: max(1, requests * Workload.requestEvery / 10))
        result.messages = count
        result.fileBytes = original.count
        result.differencesMade = made

        BridgeInspectorBench.progress("sessions: reading, transcripts and diffs")
        var start = monotonicNanoseconds()
        let contents = Recording.load(data: original)
        result.loadMs = milliseconds(from: start, to: monotonicNanoseconds())
        guard contents.problem == nil else { throw BenchError("the benchmark's recording does not load: \(contents.problem?.description ?? "")") }

        start = monotonicNanoseconds()
        let left = SessionTranscript(contents: contents, name: "original")
        result.transcriptMs = milliseconds(from: start, to: monotonicNanoseconds())
        let right = SessionTranscript(contents: Recording.load(data: other), name: "other")
        let changed = SessionTranscript(contents: Recording.load(data: changedFile), name: "changed")

        start = monotonicNanoseconds()
        let same = SessionDiff(left: left, right: right)
        result.diffSameMs = milliseconds(from: start, to: monotonicNanoseconds())
        guard same.isSame else { throw BenchError("two equal sessions differ: \(same.summary)") }
        start = monotonicNanoseconds()
        let different = SessionDiff(left: left, right: changed)
        result.diffChangedMs = milliseconds(from: start, to: monotonicNanoseconds())
        result.differencesFound = different.differences.count

        BridgeInspectorBench.progress("sessions: redacting")
        start = monotonicNanoseconds()
        var redactor = Redactor()
        let redacted = redactor.redactRecording(original)
        result.redactMs = milliseconds(from: start, to: monotonicNanoseconds())
        guard Recording.load(data: redacted).frames.count == contents.frames.count else { throw BenchError("the redacted recording lost frames") }

        result.rerun = try await rerun(original, journeyMessages: left.items.filter { $0.direction == .received }.count, scratch: scratch)
        return result
    }

    /// `bridge-inspector rerun` of `recording` into a `bridge-inspector host` whose `device.info`
    /// answers as recorded at once, both real processes; `nil` when the binary is not built.
    static func rerun(_ recording: Data, journeyMessages: Int, scratch: ScratchDirectory) async throws -> Result.Rerun? {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bridge-inspector").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            BridgeInspectorBench.progress("sessions: no \(binary); build it (swift build -c release) for the rerun figure")
            return nil
        }
        let file = scratch.file("session.jsonl")
        try recording.write(to: URL(fileURLWithPath: file))
        let profile = scratch.file("bench-profile.json")
        try #"""
            {"name": "bench", "hostVersion": "1.0.0", "environment": "ios", "messageLogCap": 1000,
             "customCapabilities": [{"id": "device.info", "version": "1.0", "behaviour": {"respond": {"status": "success",
               "data": {"model": "Bench", "os": "Linux", "locale": "en-GB", "screen": "1170x2532"}}}}]}
            """#.write(toFile: profile, atomically: true, encoding: .utf8)
        let scenario = scratch.file("idle.json")
        try #"{"name": "idle", "steps": [{"wait": 3600000}]}"#.write(toFile: scenario, atomically: true, encoding: .utf8)
        let socket = scratch.file("rerun.sock")

        // ThreadSupport's ChildProcess, not Foundation's `Process` (it can crash in `run()` on
        // Linux); each in a process group of its own, as `Process` started them.
        let host = try ChildProcess(
            executable: binary, arguments: ["host", "--profile", profile, "--scenario", scenario, "--socket", socket],
            standardOutput: .nullDevice, standardError: .pipe, newProcessGroup: true)
        defer {
            host.signal(SIGTERM)
            _ = host.waitUntilExit()
        }
        guard await waitUntil(timeout: 30, { FileManager.default.fileExists(atPath: socket) || !host.isRunning }), host.isRunning else {
            let why = host.isRunning ? "" : String(decoding: host.standardError?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
            throw BenchError("the bench host did not start (no \(socket)): \(why)")
        }
        BridgeInspectorBench.progress("sessions: rerun of \(journeyMessages) journey messages into a real host")
        let start = monotonicNanoseconds()
        let rerun = try ChildProcess(
            executable: binary, arguments: ["rerun", file, "--socket", socket, "--quiet", "--answer-timeout", "60"],
            standardOutput: .pipe, standardError: .descriptor(1), newProcessGroup: true)
        let (text, exitStatus) = await DedicatedThread.run(name: "bench-rerun-wait") { () -> (Data, Int32) in
            let text = rerun.standardOutput?.readDataToEndOfFile() ?? Data()
            return (text, rerun.waitUntilExit().statusOrSignal)
        }
        let seconds = seconds(from: start, to: monotonicNanoseconds())
        let summary = String(decoding: text, as: UTF8.self).split(separator: "\n").suffix(3).joined(separator: " / ")
        if exitStatus != 0 { BridgeInspectorBench.progress("sessions: rerun exited \(exitStatus): \(summary)") }
        return Result.Rerun(journeyMessages: journeyMessages, seconds: seconds, exitStatus: exitStatus, summary: summary)
    }

    /// The snapshot a recording starts with: the bench host, nothing logged yet.
    static let snapshotLine = #"{"kind":"snapshot","seq":0,"state":{"host":{"name":"bench","pid":1,"hostVersion":"1.0.0","environment":"ios","startedAt":\#(startTime)},"#
        + #""journeyAttached":true,"lastError":null,"errorHistory":[],"messages":[],"malformed":[],"pending":[],"slots":[],"#
        + #""customCapabilities":[{"id":"device.info","version":"1.0","hasHandler":true,"shadowedBySlot":false}],"#
        + #""counts":{"received":0,"sent":0,"malformed":0,"evicted":0}}}"#
}
