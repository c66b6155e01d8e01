import Foundation
import TestSupport
import Testing

/// Issue 27: on a terminal, commands that send something print one line, not the message's JSON
/// (`slot document complete` printed 1.2 MB of Base64); piped they print the JSON as before. And
/// `record` says how far it got while it runs, on a terminal only (trap 7).
@Suite(
    "Scripting output on a terminal",
    .serialized,
    .timeLimit(.minutes(10)),
    .requires(.tmux))
struct ScriptingTerminalOutputTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    func heldHost() async throws -> ScriptedHost {
        try await ScriptedHost.held(binary: binary)
    }

    @Test("slot complete on a terminal prints one summary line with the image's type, size and weight; respond too; --json the JSON")
    func oneLineOnATerminal() async throws {
        let host = try await heldHost()
        defer { host.stop() }
        let session = try TmuxSession([binary, "slot", "document", "complete", "--socket", host.socket])
        defer { session.kill() }
        let screen = await session.waitFor("[exited 0]")
        #expect(screen?.contains("completed document slot cap-1: success, image/png 1280×808") == true, "\(screen ?? "")")
        #expect(screen?.contains("KB → journey") == true, "\(screen ?? "")")
        #expect(screen?.contains("imageBase64") == false, "no JSON on a terminal: \(screen ?? "")")
        // The journey got the whole image all the same.
        #expect(await waitUntil(timeout: .seconds(60)) {
            let received = (host.receivedResponse("cap-1")?["message"] as? [String: Any])?["payload"] as? [String: Any]
            return ((received?["data"] as? [String: Any])?["imageBase64"] as? String)?.isEmpty == false
        })

        let respond = try TmuxSession([binary, "respond", "nfc-1", "--data", #"{"uid":"04A2"}"#, "--socket", host.socket])
        defer { respond.kill() }
        let answered = await respond.waitFor("[exited 0]")
        #expect(answered?.contains("answered nfc-1 (nfc.read): success, data {uid} → journey") == true, "\(answered ?? "")")

        let json = try TmuxSession([binary, "respond", "nfc-2", "--json", "--socket", host.socket], width: 200)
        defer { json.kill() }
        let printed = await json.waitFor("[exited 0]")
        #expect(printed?.contains(#""correlationId":"nfc-2""#) == true, "\(printed ?? "")")
    }

    @Test("piped, slot complete prints the message as one line of JSON, as scripts read it, and the default image is small")
    func jsonWhenPiped() async throws {
        let host = try await heldHost()
        defer { host.stop() }
        let complete = try await host.run(["slot", "document", "complete"], binary: binary)
        #expect(complete.status == 0, "\(complete)")
        #expect(complete.lines.count == 1)
        let data = try #require((scriptingJSON(complete.stdout)?["payload"] as? [String: Any])?["data"] as? [String: Any])
        #expect(data["imageWidth"] as? Int == 1280 && data["imageHeight"] as? Int == 808, "\(data.keys)")
        #expect(complete.stdout.utf8.count < 100_000, "\(complete.stdout.utf8.count) bytes, not 1.2 MB")
    }

    @Test("record on a terminal shows messages and bytes so far on one line, updated in place; piped stderr gets none of it")
    func recordProgress() async throws {
        let host = try await heldHost()
        defer { host.stop() }
        let directory = try TemporaryDirectory()
        // Stops by itself after the third event: Ctrl-C in tmux would end the pane's shell too.
        let session = try TmuxSession([binary, "record", directory.file("live.jsonl"), "--count", "3", "--socket", host.socket])
        defer { session.kill() }
        await session.waitFor("recording ", "live.jsonl: 0 messages", "(Ctrl-C stops)")
        #expect(try await host.run(["event", "host.ping"], binary: binary).status == 0)
        #expect(try await host.run(["event", "host.ping"], binary: binary).status == 0)
        let later = await session.waitFor("live.jsonl: 2 messages")
        #expect(later?.components(separatedBy: "(Ctrl-C stops)").count == 2, "one progress line, rewritten: \(later ?? "")")
        #expect(try await host.run(["event", "host.ping"], binary: binary).status == 0)
        let done = await session.waitFor("[exited 0]")
        #expect(done?.contains("recorded ") == true, "\(done ?? "")")
        #expect(done?.contains("(Ctrl-C stops)") == false, "the progress line is cleared before the summary: \(done ?? "")")

        // A narrow terminal: the line is cut to fit, so rewriting it never leaves wrapped rows behind.
        let narrow = try TmuxSession([binary, "record", directory.file("narrow.jsonl"), "--count", "1", "--socket", host.socket], width: 40)
        defer { narrow.kill() }
        let cut = await narrow.waitFor("recording ")
        let rows = (cut ?? "").split(separator: "\n").filter { !$0.isEmpty }
        #expect(rows.count == 1 && rows.first?.hasSuffix("…") == true, "\(cut ?? "")")
        #expect(try await host.run(["event", "host.ping"], binary: binary).status == 0)
        #expect(await narrow.exitStatus() == 0, "\(narrow.screen())")

        // Not a terminal: only the summary, no carriage returns or escapes.
        let file = directory.file("piped.jsonl")
        let record = try BinaryProcess(["record", file, "--socket", host.socket, "--count", "1"], binary: binary, stdin: .closed)
        defer { record.kill() }
        #expect(await waitUntil(timeout: .seconds(30)) { ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains(#""kind":"snapshot""#) })
        #expect(try await host.run(["event", "host.ping"], binary: binary).status == 0)
        #expect(await record.waitForExit() == 0, "\(record.standardError)")
        #expect(record.standardError.hasPrefix("recorded "), "\(record.standardError)")
        #expect(!record.standardError.contains("\r") && !record.standardError.contains("\u{1B}"), "\(record.standardError)")
    }
}
