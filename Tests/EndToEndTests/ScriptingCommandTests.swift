import BridgeCore
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The steps of a journey that leaves work for a script: a document capture held by the demo
/// profile's manual slot (cap-1), two nfc.read requests waiting in pendingRequests and a malformed
/// message.
let scriptingHeldSteps = """
      {"send": {"payload": {"action": "camera.document.capture", "data": {"side": "front"}}, "correlationId": "cap-1", "timeoutMs": 600000}},
      {"send": {"payload": {"action": "nfc.read", "data": {"documentType": "passport"}}, "correlationId": "nfc-1", "timeoutMs": 600000}},
      {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-2", "timeoutMs": 600000}},
      {"sendRaw": "{oops"}
    """

/// The held journey, which then sends nothing more: what a test sees does not depend on how long
/// its commands take.
let scriptingHeldScenario = """
    {"name": "held", "steps": [
    \(scriptingHeldSteps),
      {"wait": 600000}
    ]}
    """

/// Three `nfc.read` requests, each sent only once the one before it is answered: however slowly
/// the processes start, one is pending when a responder starts and the next is new.
let scriptingChainedNFCScenario = """
    {"name": "three", "steps": [
      {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-1", "timeoutMs": 600000, "label": "first"}},
      {"awaitResponse": {"label": "first"}},
      {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-2", "timeoutMs": 600000, "label": "second"}},
      {"awaitResponse": {"label": "second"}},
      {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-3", "timeoutMs": 600000}},
      {"wait": 600000}
    ]}
    """

/// The held journey, then later requests that the test lets in one at a time: the journey asks
/// `gate.open` and, each time the test answers it, sends one `late.thing` request and asks again.
/// Nothing depends on a timer, however slow the machine.
let scriptingGatedScenario = """
    {"name": "gated", "steps": [
    \(scriptingHeldSteps),
      {"repeat": {"times": 100, "steps": [
        {"send": {"payload": {"action": "gate.open"}, "label": "gate", "timeoutMs": 600000}},
        {"awaitResponse": {"label": "gate", "timeoutMs": 600000}},
        {"send": {"payload": {"action": "late.thing"}, "timeoutMs": 600000}}
      ]}},
      {"wait": 600000}
    ]}
    """

/// The scripting subcommands against a real `bridge-inspector host`: what they print, what they
/// make the host send, and the exit codes they keep.
@Suite("Scripting: hosts, snapshot, respond, event, slot, tail, wait-for", .serialized)
struct ScriptingCommandTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// Starts a host running `scriptingHeldScenario` and waits until its first requests are pending.
    func heldHost() async throws -> ScriptedHost {
        try await ScriptedHost.held(binary: binary)
    }

    @Test("hosts lists live hosts and stale sockets; selection by --host; exit 3 without a host, 64 with several")
    func hostsAndSelection() async throws {
        let runtime = try TemporaryDirectory()
        let environment: [String: String?] = ["XDG_RUNTIME_DIR": runtime.path]
        func cli(_ arguments: [String]) async throws -> CLIResult { try await runCLI(arguments, binary: binary, environment: environment) }

        let none = try await cli(["snapshot"])
        #expect(none.status == 3, "\(none)")
        #expect(none.stderr.contains("no running host found"), "\(none)")
        #expect(none.stderr.contains("bridge-inspector demo"), "the message says what to do")
        let emptyList = try await cli(["hosts"])
        #expect(emptyList.status == 0, "\(emptyList)")
        #expect(emptyList.stdout.isEmpty)
        #expect(emptyList.stderr.contains("no hosts"))
        #expect(try await cli(["hosts", "--json"]).stdout == "[]\n")

        let scenario = try TemporaryDirectory()
        let scenarioPath = scenario.file("s.json")
        try scriptingHeldScenario.write(toFile: scenarioPath, atomically: true, encoding: .utf8)
        let alpha = try BinaryProcess(["host", "--profile", examplePath("profiles/demo.json"), "--scenario", scenarioPath, "--name", "alpha"], binary: binary, environment: environment, stdin: .closed)
        defer { alpha.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) { alpha.standardOutput.hasPrefix("socket: ") })
        let directory = runtime.path + "/bridge-inspector"
        try scriptingStaleSocket(at: directory + "/ghost.4242.sock")

        let listed = try await cli(["hosts"])
        #expect(listed.status == 0, "\(listed)")
        let lines = listed.lines
        #expect(lines.first?.hasPrefix("NAME") == true)
        let alphaLine = try #require(lines.first { $0.hasPrefix("alpha") }, "\(listed)")
        #expect(alphaLine.contains("\(alpha.pid)"))
        #expect(alphaLine.contains("1.0.0    native  "), "VERSION, then VIA")
        #expect(alphaLine.contains("(up "))
        #expect(alphaLine.contains("\(directory)/alpha.\(alpha.pid).sock"))
        let ghostLine = try #require(lines.first { $0.hasPrefix("ghost") }, "\(listed)")
        #expect(ghostLine.contains("stale"))

        let json = try await cli(["hosts", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let alphaEntry = try #require(entries.first { $0["name"] as? String == "alpha" })
        #expect(alphaEntry["live"] as? Bool == true)
        #expect(alphaEntry["pid"] as? Int == Int(alpha.pid))
        #expect(alphaEntry["hostVersion"] as? String == "1.0.0")
        #expect(alphaEntry["inspection"] as? String == "native")
        #expect(alphaEntry["startedAt"] is Double || alphaEntry["startedAt"] is Int)
        #expect(entries.first { $0["name"] as? String == "ghost" }?["live"] as? Bool == false)

        // The only live host is chosen; --host picks by name; an unknown name is exit 3.
        #expect(try await cli(["snapshot", "--json"]).status == 0)
        #expect(try await cli(["snapshot", "--host", "alpha"]).status == 0)
        #expect(try await cli(["snapshot", "--host", "alpha.\(alpha.pid)"]).status == 0)
        let unknown = try await cli(["snapshot", "--host", "nope"])
        #expect(unknown.status == 3, "\(unknown)")
        #expect(unknown.stderr.contains("no running host named 'nope'"))
        // Why it may be (issue 27, "why can't I attach?"): what runs under other names, where
        // else a host may serve.
        #expect(unknown.stderr.contains("why it may be:"), "\(unknown)")
        #expect(unknown.stderr.contains("running under other names: alpha (pid \(alpha.pid))"), "\(unknown)")
        #expect(unknown.stderr.contains("another BRIDGE_INSPECTOR_SOCKET_DIR"), "\(unknown)")
        let crashed = try await cli(["snapshot", "--host", "ghost"])
        #expect(crashed.status == 3, "\(crashed)")
        #expect(crashed.stderr.contains("ghost (pid 4242) left \(directory)/ghost.4242.sock behind and no longer answers"), "\(crashed)")
        let missingSocket = try await runCLI(["hosts", "--socket", runtime.file("missing.sock")], binary: binary, environment: environment)
        #expect(missingSocket.status == 3, "\(missingSocket)")
        let staleSocket = try await cli(["hosts", "--socket", directory + "/ghost.4242.sock"])
        #expect(staleSocket.status == 3, "\(staleSocket)")
        #expect(staleSocket.stderr.contains("nobody answers"))
        let liveSocket = try await cli(["hosts", "--socket", "\(directory)/alpha.\(alpha.pid).sock"])
        #expect(liveSocket.status == 0, "\(liveSocket)")
        #expect(liveSocket.lines.last?.hasPrefix("alpha") == true)

        // Two live hosts: the script must choose (usage, 64).
        let beta = try BinaryProcess(["host", "--profile", examplePath("profiles/minimal.json"), "--scenario", scenarioPath, "--name", "beta"], binary: binary, environment: environment, stdin: .closed)
        defer { beta.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) { beta.standardOutput.hasPrefix("socket: ") })
        let several = try await cli(["respond", "nfc-1"])
        #expect(several.status == 64, "\(several)")
        #expect(several.stderr.contains("several hosts are running"))
        #expect(several.stderr.contains("--host NAME"))
        #expect(try await cli(["snapshot", "--host", "beta"]).status == 0)
    }

    @Test("hosts never calls a socket it could not probe (another user's) safe to delete: it says whose it is")
    func hostsSocketOfAnotherUser() async throws {
        // A live host's socket (0600, its owner's), in the per-user directory of the user who
        // runs `hosts`. As root, `hosts` runs as nobody (root may connect to any socket), and the
        // socket stays root's: nobody's connect is refused with EACCES. As any other user, the
        // socket is the user's own with its permissions taken away, which refuses connect alike.
        let runtime = try TemporaryDirectory()
        let directory = runtime.path + "/bridge-inspector"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let asRoot = getuid() == 0
        let nobody: uid_t = 65534
        let setpriv = "/usr/bin/setpriv"
        if asRoot {
            try #require(FileManager.default.isExecutableFile(atPath: setpriv), "running as root, the test needs setpriv (util-linux) to run hosts as nobody")
            // nobody's XDG_RUNTIME_DIR and socket directory, with root's live socket in it.
            #expect(chown(runtime.path, nobody, gid_t(nobody)) == 0)
            #expect(chown(directory, nobody, gid_t(nobody)) == 0)
        }
        let socket = directory + "/other.4242.sock"
        let scenario = runtime.file("s.json")
        try scriptingHeldScenario.write(toFile: scenario, atomically: true, encoding: .utf8)
        let other = try BinaryProcess(["host", "--profile", examplePath("profiles/demo.json"), "--scenario", scenario, "--socket", socket], binary: binary, stdin: .closed)
        defer { other.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) { other.standardOutput.hasPrefix("socket: ") })
        if !asRoot { #expect(chmod(socket, 0) == 0) }
        func hosts(_ arguments: [String]) async throws -> CLIResult {
            let environment: [String: String?] = ["XDG_RUNTIME_DIR": runtime.path]
            if asRoot {
                return try await runCLI(["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", binary, "hosts"] + arguments, binary: setpriv, environment: environment)
            }
            return try await runCLI(["hosts"] + arguments, binary: binary, environment: environment)
        }
        let whose = asRoot ? "it is owned by uid 0, not you (uid \(nobody))" : "connecting failed (Permission denied)"

        let checked = try await hosts(["--socket", socket])
        #expect(checked.status == 3, "\(checked)")
        #expect(!checked.stderr.contains("safe to delete"), "\(checked)")
        #expect(checked.stderr.contains("cannot attach to \(socket): \(whose)"), "\(checked)")
        #expect(checked.stderr.contains("leave it alone"), "\(checked)")
        #expect(checked.stderr.contains("do not delete it"), "\(checked)")

        let listed = try await hosts([])
        #expect(listed.status == 0, "\(listed)")
        let line = try #require(listed.lines.first { $0.hasPrefix("other") }, "\(listed)")
        #expect(!line.contains("stale") && !line.contains("safe to delete"), "\(line)")
        #expect(line.contains("unknown: \(whose)"), "\(line)")
        #expect(line.contains("leave it alone"), "\(line)")
        let json = try await hosts(["--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], "\(json)")
        let entry = try #require(entries.first { $0["name"] as? String == "other" })
        #expect(entry["live"] as? Bool == false)
        #expect((entry["unknown"] as? String)?.contains(whose) == true, "\(entry)")
        #expect(other.isRunning, "the host was left alone")
    }

    @Test("snapshot prints the state as text, and as the protocol's state object with --json")
    func snapshot() async throws {
        let host = try await heldHost()
        defer { host.stop() }
        let text = try await host.run(["snapshot"], binary: binary)
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("host       demo (pid \(host.process.pid)), version 1.0.0"))
        #expect(text.stdout.contains("pending requests: 2"))
        #expect(text.lines.contains { $0.contains("nfc-1") && $0.contains("nfc.read") })
        #expect(text.lines.contains { $0.contains("document") && $0.contains("BUSY with cap-1") })
        #expect(text.stdout.contains("lastError  Failed to decode message"))

        let json = try await host.run(["snapshot", "--json"], binary: binary)
        #expect(json.status == 0, "\(json)")
        #expect(json.lines.count == 1, "one line of JSON")
        let state = try #require(scriptingJSON(json.stdout))
        #expect(Set(state.keys) == ["host", "journeyAttached", "lastError", "errorHistory", "messages", "malformed", "pending", "slots", "customCapabilities", "counts", "held", "breakpoints", "faults"])
        let pending = try #require(state["pending"] as? [[String: Any]])
        #expect(pending.map { $0["correlationId"] as? String } == ["nfc-1", "nfc-2"])
        #expect(pending.first?["action"] as? String == "nfc.read")
        let slots = try #require(state["slots"] as? [[String: Any]])
        #expect(slots.first?["kind"] as? String == "document")
        #expect(slots.first?["activeRequest"] as? String == "cap-1")
        #expect(((state["lastError"] as? [String: Any])?["text"] as? String)?.hasPrefix("Failed to decode message") == true)
        #expect((state["host"] as? [String: Any])?["pid"] as? Int == Int(host.process.pid))

        let pretty = try await host.run(["snapshot", "--json", "--pretty"], binary: binary)
        #expect(pretty.lines.count > 20)
        #expect(try await host.run(["snapshot", "--pretty"], binary: binary).status == 64)
    }

    @Test("respond answers a pending request; the host's refusals are exit 2, malformed --data is exit 64 and sends nothing")
    func respond() async throws {
        let host = try await heldHost()
        defer { host.stop() }

        // Malformed JSON is refused before connecting, with its line and column.
        let malformed = try await host.run(["respond", "nfc-1", "--data", #"{"uid": "04A2",}"#], binary: binary)
        #expect(malformed.status == 64, "\(malformed)")
        #expect(malformed.stderr.contains("--data is not valid JSON: line 1, column 16"), "\(malformed)")
        #expect(malformed.stdout.isEmpty)
        let notObject = try await host.run(["respond", "nfc-1", "--data", "[1, 2]"], binary: binary)
        #expect(notObject.status == 64)
        #expect(notObject.stderr.contains("must be a JSON object"))
        let badFile = try await host.run(["respond", "nfc-1", "--data", "@/nonexistent/answer.json"], binary: binary)
        #expect(badFile.status == 64)
        #expect(badFile.stderr.contains("no such file"))
        let badStdin = try await host.run(["respond", "nfc-1", "--data", "-"], binary: binary, stdin: "{\n  \"uid\": [1,\n}")
        #expect(badStdin.status == 64)
        #expect(badStdin.stderr.contains("line 3, column 1"), "\(badStdin)")
        let missingCode = try await host.run(["respond", "nfc-1", "--error-message", "x"], binary: binary)
        #expect(missingCode.status == 64)
        let unknownCode = try await host.run(["respond", "nfc-1", "--status", "error", "--error-code", "MY_CODE"], binary: binary)
        #expect(unknownCode.status == 64)
        #expect(unknownCode.stderr.contains("needs --error-message"))
        let badStatus = try await host.run(["respond", "nfc-1", "--status", "fine"], binary: binary)
        #expect(badStatus.status == 64)
        // Status and error must agree: the journey cannot act on an error without a code, nor
        // on a success that carries an error.
        let errorWithoutCode = try await host.run(["respond", "nfc-1", "--status", "error"], binary: binary)
        #expect(errorWithoutCode.status == 64, "\(errorWithoutCode)")
        #expect(errorWithoutCode.stderr.contains("an error response needs an error code"), "\(errorWithoutCode)")
        let successWithError = try await host.run(["respond", "nfc-1", "--error-code", "BUSY"], binary: binary)
        #expect(successWithError.status == 64, "\(successWithError)")
        #expect(successWithError.stderr.contains("a success response carries no error"), "\(successWithError)")
        #expect(try host.state().pending.map(\.correlationId) == ["nfc-1", "nfc-2"], "nothing was sent")

        // Success: the exact message sent is printed.
        let answered = try await host.run(["respond", "nfc-1", "--data", #"{"uid": "04A2", "n": 2}"#], binary: binary)
        #expect(answered.status == 0, "\(answered)")
        let sent = try #require(scriptingJSON(answered.stdout))
        #expect(sent["correlationId"] as? String == "nfc-1")
        #expect(sent["type"] as? String == "response")
        let payload = try #require(sent["payload"] as? [String: Any])
        #expect(payload["status"] as? String == "success")
        #expect((payload["data"] as? [String: Any])?["uid"] as? String == "04A2")
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("nfc-1") != nil })

        // Refusals: the host's message on stderr, exit 2, what to do next.
        let again = try await host.run(["respond", "nfc-1"], binary: binary)
        #expect(again.status == 2, "\(again)")
        #expect(again.stderr.contains("request 'nfc-1' was already answered"), "\(again)")
        #expect(again.stderr.contains("(already_answered)"))
        #expect(again.stderr.contains("hint: list pending requests with `bridge-inspector snapshot`"))
        let unknown = try await host.run(["respond", "no-such-id"], binary: binary)
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains("no pending request has correlationId 'no-such-id'"))
        let capture = try await host.run(["respond", "cap-1"], binary: binary)
        #expect(capture.status == 2, "a capture slot's request is not pending: \(capture)")
        #expect(capture.stderr.contains("handled_elsewhere"))

        // An error response with data from standard input, quietly.
        let fromStdin = try await host.run(
            ["respond", "nfc-2", "--status", "error", "--error-code", "PERMISSION_DENIED", "--data", "-", "--quiet"], binary: binary,
            stdin: #"{"reason": "denied"}"#)
        #expect(fromStdin.status == 0, "\(fromStdin)")
        #expect(fromStdin.stdout.isEmpty)
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("nfc-2") != nil })
        let response = try #require((host.receivedResponse("nfc-2")?["message"] as? [String: Any])?["payload"] as? [String: Any])
        #expect(response["status"] as? String == "error")
        let error = try #require(response["error"] as? [String: Any])
        #expect(error["code"] as? String == "PERMISSION_DENIED")
        #expect(error["message"] as? String == "Permission was denied")
        #expect(error["recoverable"] as? Bool == true)
        #expect((response["data"] as? [String: Any])?["reason"] as? String == "denied")
    }

    @Test("--data's JSON mistakes name the column in characters from the first one given, as the inspector's data field does")
    func dataColumnsInCharacters() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("none.sock")
        // Leading spaces count: the mistake (2) is the 13th character typed.
        let spaced = try await runCLI(["respond", "nfc-1", "--data", #"    {"a": 1 2}"#, "--socket", socket], binary: binary)
        #expect(spaced.status == 64, "\(spaced)")
        #expect(spaced.stderr.contains("--data is not valid JSON: line 1, column 13: "), "\(spaced)")
        // é is one character (two bytes): the 2 is the 13th character, not the 15th byte.
        let accented = try await runCLI(["respond", "nfc-1", "--data", #"{"né": "é" 2}"#, "--socket", socket], binary: binary)
        #expect(accented.status == 64, "\(accented)")
        #expect(accented.stderr.contains("--data is not valid JSON: line 1, column 12: "), "\(accented)")
        // The same text in a file, on its second line.
        let file = directory.file("answer.json")
        try "{\n  \"名前\": \"値\" 2}".write(toFile: file, atomically: true, encoding: .utf8)
        let fromFile = try await runCLI(["respond", "nfc-1", "--data", "@" + file, "--socket", socket], binary: binary)
        #expect(fromFile.stderr.contains("is not valid JSON: line 2, column 13: "), "\(fromFile)")
    }

    @Test("event sends a host event; slot completes, cancels and changes the capture slots; an idle slot is exit 2")
    func eventAndSlot() async throws {
        let host = try await heldHost()
        defer { host.stop() }
        let dataFile = host.directory.file("event.json")
        try #"{"locale": "en-GB"}"#.write(toFile: dataFile, atomically: true, encoding: .utf8)
        let event = try await host.run(["event", "journey.configure", "--data", "@" + dataFile], binary: binary)
        #expect(event.status == 0, "\(event)")
        #expect((scriptingJSON(event.stdout)?["payload"] as? [String: Any])?["action"] as? String == "journey.configure")
        #expect(await waitUntil(timeout: .seconds(60)) {
            host.journeyEntries.contains { $0["kind"] as? String == "received" && $0["action"] as? String == "journey.configure" }
        })

        // Usage mistakes are caught before anything is sent.
        #expect(try await host.run(["slot", "passport", "complete"], binary: binary).status == 64)
        let mixed = try await host.run(["slot", "document", "complete", "--reason", "x"], binary: binary)
        #expect(mixed.status == 64)
        #expect(mixed.stderr.contains("--reason does not apply to --result success"))
        #expect(try await host.run(["slot", "document", "complete", "--width", "0"], binary: binary).status == 64)
        #expect(try await host.run(["slot", "document", "complete", "--result", "error"], binary: binary).status == 64)
        #expect(try await host.run(["slot", "selfie", "permission", "maybe"], binary: binary).status == 64)
        #expect(try host.state().slots.first?.activeRequest == "cap-1")

        // Complete the held capture with a synthetic 4x3 image.
        let complete = try await host.run(["slot", "document", "complete", "--width", "4", "--height", "3"], binary: binary)
        #expect(complete.status == 0, "\(complete)")
        let sent = try #require(scriptingJSON(complete.stdout))
        #expect(sent["correlationId"] as? String == "cap-1")
        let data = try #require((sent["payload"] as? [String: Any])?["data"] as? [String: Any])
        #expect(data["imageWidth"] as? Int == 4)
        #expect(data["mimeType"] as? String == "image/png")
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("cap-1") != nil })

        // Now idle: the host refuses, exit 2, with its message.
        let idle = try await host.run(["slot", "document", "complete"], binary: binary)
        #expect(idle.status == 2, "\(idle)")
        #expect(idle.stderr.contains("idle"))
        #expect(idle.stderr.contains("no active request to complete"), "\(idle)")
        #expect(idle.stderr.contains("(slot_idle)"))
        let idleCancel = try await host.run(["slot", "document", "cancel", "--reason", "Closed"], binary: binary)
        #expect(idleCancel.status == 2, "\(idleCancel)")
        #expect(idleCancel.stderr.contains("there is no active request to cancel"), "an idle slot has nothing to cancel: \(idleCancel)")
        #expect(!idleCancel.stderr.contains("complete"), "\(idleCancel)")

        // Permission and enablement.
        #expect(try await host.run(["slot", "selfie", "permission", "denied"], binary: binary).status == 0)
        #expect(try await host.run(["slot", "document", "disable"], binary: binary).status == 0)
        let slots = try host.state().slots
        #expect(slots.first { $0.kind == .selfie }?.permissionState == .denied)
        #expect(slots.first { $0.kind == .document }?.enabled == false)
        #expect(try await host.run(["slot", "document", "enable"], binary: binary).status == 0)
        #expect(try host.state().slots.first { $0.kind == .document }?.enabled == true)
    }

    // Issue 13, trap 8: `slot … --image FILE` reported 1280×720 for any file.
    @Test("slot complete --image sends the file's real size and type, read from its content; anything but PNG or JPEG is refused")
    func slotImageSize() async throws {
        let host = try await heldHost()
        defer { host.stop() }
        let notImage = host.directory.file("notes.png")
        try Data("just text".utf8).write(to: URL(fileURLWithPath: notImage))
        let refused = try await host.run(["slot", "document", "complete", "--image", notImage], binary: binary)
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.hasPrefix("Error: --image \(notImage): not a PNG or JPEG image"), "\(refused)")
        #expect(refused.stderr.contains("only PNG and JPEG can be sent"))
        #expect(try host.state().slots.first?.activeRequest == "cap-1", "nothing was sent")

        // A real 37×23 PNG, named .jpg: the size and type come from the bytes.
        let image = host.directory.file("scan.jpg")
        try SyntheticImage.png(width: 37, height: 23).write(to: URL(fileURLWithPath: image))
        let complete = try await host.run(["slot", "document", "complete", "--image", image], binary: binary)
        #expect(complete.status == 0, "\(complete)")
        let data = try #require(((scriptingJSON(complete.stdout)?["payload"] as? [String: Any])?["data"] as? [String: Any]))
        #expect(data["imageWidth"] as? Int == 37 && data["imageHeight"] as? Int == 23, "\(data)")
        #expect(data["mimeType"] as? String == "image/png")
        #expect(await waitUntil(timeout: .seconds(60)) {
            let received = (host.receivedResponse("cap-1")?["message"] as? [String: Any])?["payload"] as? [String: Any]
            return (received?["data"] as? [String: Any])?["imageWidth"] as? Int == 37
        }, "the journey received the real size")
    }

    // Issue 13, trap 8: tail --json mixed Traffic and Malformed records with nothing to tell them apart.
    @Test("tail --json gives every record a kind: traffic and malformed differ; --filter takes | and ( )")
    func tailKinds() async throws {
        let host = try await heldHost()
        defer { host.stop() }
        let json = try await host.run(["tail", "--json"], binary: binary)
        #expect(json.status == 0, "\(json)")
        let records = json.lines.compactMap(scriptingJSON)
        #expect(records.count == json.lines.count && !records.isEmpty, "\(json)")
        #expect(records.allSatisfy { $0["kind"] is String }, "every record has a kind: \(json.stdout)")
        let malformed = try #require(records.first { $0["raw"] as? String == "{oops" })
        #expect(malformed["kind"] as? String == "malformed")
        let nfc = try #require(records.first { ($0["message"] as? [String: Any])?["correlationId"] as? String == "nfc-1" })
        #expect(nfc["kind"] as? String == "traffic")
        #expect(records.filter { $0["kind"] as? String == "malformed" }.count == 1)

        // The filter language's | and ( ) on the command line, as in the TUI.
        let either = try await host.run(["tail", "--json", "--filter", "is:malformed | (type:request action:camera.*)"], binary: binary)
        #expect(either.status == 0, "\(either)")
        let kinds = either.lines.compactMap(scriptingJSON).map { $0["kind"] as? String }
        #expect(kinds.sorted { ($0 ?? "") < ($1 ?? "") } == ["malformed", "traffic"], "\(either)")
        #expect(either.stdout.contains("cap-1") && !either.stdout.contains("nfc-1"))
    }

    @Test("tail prints the log (text or JSON Lines), filters it, follows it until --until or --count; --timeout is exit 4")
    func tail() async throws {
        let host = try await heldHost()
        defer { host.stop() }
        let all = try await host.run(["tail"], binary: binary)
        #expect(all.status == 0, "\(all)")
        #expect(all.lines.contains { $0.contains("IN ") && $0.contains("nfc.read") && $0.contains("nfc-1") })
        #expect(all.lines.contains { $0.contains("malformed") })
        #expect(all.lines.contains { $0.contains("OUT") && $0.contains("host.ready") })

        let requests = try await host.run(["tail", "--filter", "type:request action:nfc.*"], binary: binary)
        #expect(requests.lines.count == 2, "\(requests)")
        #expect(requests.lines.allSatisfy { $0.contains("nfc.read") })
        let last = try await host.run(["tail", "--last", "1", "--filter", "type:request action:nfc.*"], binary: binary)
        #expect(last.lines.count == 1)
        #expect(last.stdout.contains("nfc-2"))

        let json = try await host.run(["tail", "--json"], binary: binary)
        #expect(json.status == 0)
        let records = json.lines.compactMap(scriptingJSON)
        #expect(records.count == json.lines.count, "every line is one JSON object")
        let nfc = try #require(records.first { ($0["message"] as? [String: Any])?["correlationId"] as? String == "nfc-1" })
        #expect(nfc["direction"] as? String == "received")
        #expect(nfc["origin"] as? String == "journey")
        #expect(nfc["seq"] is Int)
        #expect(records.contains { $0["raw"] as? String == "{oops" }, "malformed input is its Malformed record")

        let badFilter = try await host.run(["tail", "--filter", "type:bogus"], binary: binary)
        #expect(badFilter.status == 64)
        #expect(badFilter.stderr.contains("type is request, response or event"))

        // --until stops after the matching line; only new messages with --last 0.
        let follower = try host.start(["tail", "--last", "0", "--until", "action:host.ping", "--timeout", "20"], binary: binary)
        defer { follower.kill() }
        // Ping until the follower (attached at some point) sees one.
        try await host.ping(until: follower, attempts: 40, binary: binary)
        #expect(await follower.waitForExit() == 0, "\(follower.standardError)")
        #expect(follower.standardOutput.split(separator: "\n").last?.contains("host.ping") == true, "\(follower.standardOutput)")
        #expect(!follower.standardOutput.contains("nfc-1"))

        // --count, with and without enough lines in time.
        let two = try await host.run(["tail", "--count", "2", "--timeout", "10"], binary: binary)
        #expect(two.status == 0)
        #expect(two.lines.count == 2)
        let tooFew = try await host.run(["tail", "--last", "0", "--count", "1", "--filter", "action:never.happens", "--timeout", "1"], binary: binary)
        #expect(tooFew.status == 4, "\(tooFew)")
        let noMatch = try await host.run(["tail", "--last", "0", "--until", "action:never.happens", "--timeout", "1"], binary: binary)
        #expect(noMatch.status == 4, "\(noMatch)")
        #expect(noMatch.stderr.contains("no message matched --until"))
    }

    @Test("wait-for prints the id of a matching pending request (or of the request holding a slot); --timeout is exit 4")
    func waitFor() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingGatedScenario)
        defer { host.stop() }
        func gate() -> String? { (try? host.state())?.pending.first { $0.action == "gate.open" }?.correlationId }
        #expect(await waitUntil(timeout: .seconds(20)) { gate() != nil }, "the journey never asked gate.open")
        // A request that arrives after wait-for started: answering the journey's gate lets one
        // late.thing request in. One that arrives before wait-for has attached is already pending
        // for it, which --new ignores, so the gate is opened until wait-for has seen one.
        let late = try host.start(["wait-for", "--new", "--filter", "action:late.*", "--timeout", "120"], binary: binary)
        defer { late.kill() }
        for _ in 0..<90 where late.isRunning {
            if let id = gate() {
                #expect(try await host.run(["respond", id, "--quiet"], binary: binary).status == 0)
            }
            _ = await waitUntil(timeout: .milliseconds(500)) { !late.isRunning }
        }
        #expect(await late.waitForExit() == 0, "\(late.standardError)")
        let lateId = late.standardOutput.trimmingCharacters(in: .newlines)
        let lateRequests = try host.state().pending.filter { $0.action == "late.thing" }.map(\.correlationId)
        #expect(!lateId.isEmpty && lateRequests.contains(lateId), "printed \(lateId); late requests pending: \(lateRequests)")

        let pending = try await host.run(["wait-for", "--filter", "action:nfc.read", "--timeout", "10"], binary: binary)
        #expect(pending.status == 0, "\(pending)")
        #expect(pending.stdout == "nfc-1\n", "the oldest matching request")
        let byBody = try await host.run(["wait-for", "--filter", "body:passport", "--json", "--timeout", "10"], binary: binary)
        #expect(scriptingJSON(byBody.stdout)?["correlationId"] as? String == "nfc-1")
        let slot = try await host.run(["wait-for", "--slot", "document", "--timeout", "10"], binary: binary)
        #expect(slot.stdout == "cap-1\n", "\(slot)")

        let never = try await host.run(["wait-for", "--filter", "action:never.happens", "--timeout", "1"], binary: binary)
        #expect(never.status == 4, "\(never)")
        #expect(never.stderr.contains("no matching request became pending within 1"))
        #expect(try await host.run(["wait-for", "--filter", "nope:x"], binary: binary).status == 64)
        #expect(try await host.run(["wait-for", "--slot", "document", "--filter", "x"], binary: binary).status == 64)
    }

    @Test("a host that goes away while a command waits is exit 3, with what to do next")
    func hostGoneMidCommand() async throws {
        let host = try await heldHost()
        defer { host.stop() }
        let follower = try host.start(["tail", "--last", "0", "--until", "action:never.happens"], binary: binary)
        defer { follower.kill() }
        let waiter = try host.start(["wait-for", "--new", "--filter", "action:never.happens"], binary: binary)
        defer { waiter.kill() }
        let plain = try host.start(["tail", "--follow", "--last", "0"], binary: binary)
        defer { plain.kill() }
        // Both tails print every new message: ping until each has printed one, so both are
        // attached (the waiter exits 3 whether or not it attached before the host goes).
        for _ in 0..<60 where !(follower.standardOutput.contains("host.ping") && plain.standardOutput.contains("host.ping")) {
            #expect(try await host.run(["event", "host.ping", "--quiet"], binary: binary).status == 0)
            _ = await waitUntil(timeout: .milliseconds(500)) { follower.standardOutput.contains("host.ping") && plain.standardOutput.contains("host.ping") }
        }
        #expect(follower.standardOutput.contains("host.ping") && plain.standardOutput.contains("host.ping"), "the tails never attached")
        host.process.signal(SIGTERM)
        #expect(await host.process.waitForExit() == 0)
        #expect(await follower.waitForExit() == 3, "\(follower.standardError)")
        #expect(follower.standardError.contains("went away"))
        #expect(follower.standardError.contains("hint: check that it is running with `bridge-inspector hosts`"))
        #expect(await waiter.waitForExit() == 3, "\(waiter.standardError)")
        #expect(await plain.waitForExit() == 0, "a plain --follow ends normally when the host stops: \(plain.standardError)")

        let gone = try await host.run(["respond", "nfc-1"], binary: binary)
        #expect(gone.status == 3, "\(gone)")
        #expect(gone.stderr.contains("no host is serving"))
    }
}
