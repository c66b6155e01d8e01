import Foundation
import InspectorProtocol
import TestSupport
import Testing

/// The conventions every terminal user expects (issue 13): `--version`, shell completions that
/// complete files, host names and pending ids, a man page generated from the command
/// definitions, and `host --serve DIR` taking the journey's own host profile.
@Suite("CLI conventions")
struct CLIConventionsTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("`--version` and `version` both print the tool's version and the inspector protocol version")
    func version() async throws {
        let expected = "bridge-inspector \(WireProtocol.toolVersion) (inspector protocol \(WireProtocol.version))\n"
        for arguments in [["--version"], ["version"]] {
            let result = try await runCLI(arguments, binary: binary)
            #expect(result.status == 0, "\(arguments): \(result)")
            #expect(result.stdout == expected, "\(arguments): \(result)")
        }
    }

    @Test("the completion script completes files by kind: JSON for profiles and rules, images for --image, recordings for open")
    func completionKinds() async throws {
        let script = try await runCLI(["--generate-completion-script", "bash"], binary: binary)
        #expect(script.status == 0)
        let text = script.stdout
        func block(_ function: String) -> String {
            guard let start = text.range(of: "\(function)() {") else { return "" }
            let rest = text[start.upperBound...]
            return String(rest[..<(rest.range(of: "\n}\n")?.lowerBound ?? rest.endIndex)])
        }
        #expect(block("_bridge-inspector_host").contains("'--profile')\n        __bridge-inspector_add_completions -o plusdirs -fX '!*.@(json)'"))
        #expect(block("_bridge-inspector_host").contains("'--serve')\n        __bridge-inspector_add_completions -d"))
        #expect(block("_bridge-inspector_slot").contains("'!*.@(png|jpg|jpeg)'"))
        #expect(block("_bridge-inspector_auto-respond").contains("'--rules')\n        __bridge-inspector_add_completions -o plusdirs -fX '!*.@(json)'"))
        #expect(block("_bridge-inspector_open").contains("'!*.@(jsonl)'"))
        #expect(block("_bridge-inspector_respond").contains("---completion respond -- positional@0"))
        #expect(block("_bridge-inspector_tail").contains("---completion tail -- --host"))
    }

    @Test("Tab after `respond` offers the host's pending correlation ids, asked of the running host")
    func pendingIdsComplete() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario)
        defer { host.stop() }
        // The journey sends its requests after the host starts: wait until both are pending.
        var offered: [String] = []
        _ = try await waitUntil(timeout: .seconds(60), every: .milliseconds(50)) { () async throws -> Bool? in
            let result = try await runCLI(
                ["---completion", "respond", "--", "positional@0", "4", "0", "bridge-inspector", "respond", "--socket", host.socket, ""],
                binary: binary)
            offered = result.lines
            return offered.contains("nfc-1") && offered.contains("nfc-2") ? true : nil
        }
        #expect(offered.contains("nfc-1") && offered.contains("nfc-2"), "offered: \(offered)")
        let narrowed = try await runCLI(
            ["---completion", "respond", "--", "positional@0", "4", "5", "bridge-inspector", "respond", "--socket", host.socket, "nfc-2"],
            binary: binary)
        #expect(narrowed.lines == ["nfc-2"], "\(narrowed)")
    }

    @Test("Tab after `--host` offers the names of the running hosts; no host gives no candidates")
    func hostNamesComplete() async throws {
        let directory = try TemporaryDirectory()
        let environment: [String: String?] = ["BRIDGE_INSPECTOR_SOCKET_DIR": directory.path, "BRIDGE_INSPECTOR_SOCKET": nil]
        let complete = ["---completion", "tail", "--", "--host", "3", "0", "bridge-inspector", "tail", "--host", ""]
        let none = try await runCLI(complete, binary: binary, environment: environment)
        #expect(none.status == 0 && none.lines.isEmpty, "\(none)")

        let host = try BinaryProcess(["host", "--name", "completion-app"], binary: binary, environment: environment, stdin: .closed)
        defer { host.kill() }
        #expect(await host.waitForLine(prefix: "socket: ") != nil, "\(host.standardError)")
        let some = try await runCLI(complete, binary: binary, environment: environment)
        #expect(some.lines == ["completion-app"], "\(some)")
    }

    @Test("docs/man/bridge-inspector.1 lists every subcommand and every option the binary has (docs/update-man-page.sh regenerates it)")
    func manPageCurrent() async throws {
        let page = try String(contentsOf: packageRoot.appendingPathComponent("docs/man/bridge-inspector.1"), encoding: .utf8)
        let dump = try await runCLI(["--experimental-dump-help"], binary: binary)
        let info = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let root = try #require(info["command"] as? [String: Any])
        var missing: [String] = []
        for command in root["subcommands"] as? [[String: Any]] ?? [] {
            guard let name = command["commandName"] as? String, name != "help" else { continue }
            if !page.contains(".It Em \(name)") { missing.append(name) }
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                guard argument["shouldDisplay"] as? Bool ?? true else { continue }
                for spelling in argument["names"] as? [[String: Any]] ?? [] where spelling["kind"] as? String == "long" {
                    let option = spelling["name"] as? String ?? ""
                    // mdoc writes `--name` as `Fl -name`, or `Fl f , -name` beside a short name.
                    if !page.contains("Fl -\(option)") && !page.contains(", -\(option)") { missing.append("\(name) --\(option)") }
                }
            }
        }
        #expect(missing.isEmpty, "the man page is out of date (run `bash docs/update-man-page.sh`): \(missing)")
    }

    @Test("`host --serve DIR` without --profile takes DIR/host-profile.json (named after it) and says how to attach")
    func serveTakesJourneyProfile() async throws {
        let directory = try TemporaryDirectory()
        let environment: [String: String?] = ["BRIDGE_INSPECTOR_SOCKET_DIR": directory.path, "BRIDGE_INSPECTOR_SOCKET": nil]
        let host = try BinaryProcess(["host", "--serve", examplePath("web-journey")], binary: binary, environment: environment, stdin: .closed)
        defer { host.kill() }
        let socket = try #require(await host.waitForLine(prefix: "socket: "), "\(host.standardError)")
        #expect((socket as NSString).lastPathComponent.hasPrefix("web-journey."), "\(socket)")
        let said = await waitUntil(timeout: .seconds(20)) { host.standardError.contains("bridge-inspector --host web-journey") }
        #expect(said, "\(host.standardError)")
        #expect(host.standardError.contains("using the host profile \(examplePath("web-journey/host-profile.json"))"))
    }
}
