import Foundation
import InspectorClient
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `bridge-inspector host --listen-tcp` and `--connect HOST:PORT --token T`: the device-over-USB
/// path (docs/real-apps.md, "On a device, over USB"), tried on loopback with the real binary.
@Suite("Scripting: attach over TCP with a token", .serialized)
struct ScriptingTCPTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// The host's `tcp:` address and the token from its one connect line on standard error.
    private func tcpTarget(of host: ScriptedHost) async throws -> (address: String, token: String) {
        let address = try #require(await host.process.waitForLine(prefix: "tcp: "), "\(host.process.standardError)")
        #expect(await waitUntil(timeout: .seconds(20)) { host.process.standardError.contains("attach over USB") })
        let line = try #require(host.process.standardError.split(separator: "\n").first { $0.contains("attach over USB") })
        #expect(line.hasPrefix("bridge-inspector: attach over USB: iproxy "), "\(line)")
        #expect(line.hasSuffix(" bridge-inspector --connect \(address)"), "\(line)")
        #expect(!line.contains("--token"), "\(line)")
        let assignment = try #require(line.split(separator: " ").first { $0.hasPrefix("BRIDGE_INSPECTOR_TOKEN=") })
        let token = String(assignment.dropFirst("BRIDGE_INSPECTOR_TOKEN=".count))
        #expect(token.count == 64)
        return (address, token)
    }

    @Test("snapshot, event and record work over --connect with the token, in every form; the token is printed nowhere else")
    func attachOverTCP() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario, extra: ["--listen-tcp", "0"])
        defer { host.stop() }
        let (address, token) = try await tcpTarget(of: host)
        let noEnvToken: [String: String?] = ["BRIDGE_INSPECTOR_TOKEN": nil]

        let snapshot = try await runCLI(["snapshot", "--connect", address, "--token", token], binary: binary, environment: noEnvToken)
        #expect(snapshot.status == 0, "\(snapshot)")
        #expect(snapshot.stdout.contains("tcp://\(address)"), "\(snapshot)")
        let viaURL = try await runCLI(["snapshot", "--json", "--connect", "tcp://\(address)?token=\(token)"], binary: binary, environment: noEnvToken)
        #expect(viaURL.status == 0, "\(viaURL)")
        let viaEnvironment = try await runCLI(["event", "host.ping", "--connect", address], binary: binary, environment: ["BRIDGE_INSPECTOR_TOKEN": token])
        #expect(viaEnvironment.status == 0, "\(viaEnvironment)")

        let file = host.directory.file("tcp.jsonl")
        let recorded = try await runCLI(["record", file, "--duration", "1", "--connect", address, "--token", token], binary: binary, environment: noEnvToken)
        #expect(recorded.status == 0, "\(recorded)")
        let recording = try String(contentsOfFile: file, encoding: .utf8)
        #expect(recording.contains("tcp://\(address)"))
        #expect(Recording.load(from: URL(fileURLWithPath: file)).problem == nil)

        for result in [snapshot, viaURL, viaEnvironment, recorded] {
            #expect(!result.stdout.contains(token) && !result.stderr.contains(token), "\(result)")
        }
        #expect(!recording.contains(token))
        // The host printed the token once: in its connect line.
        #expect(host.process.standardError.components(separatedBy: token).count == 2, "\(host.process.standardError)")
        #expect(!host.process.standardOutput.contains(token))
    }

    @Test("a wrong token is exit 2 and a missing one exit 64, each saying where the token is")
    func refusedToken() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario, extra: ["--listen-tcp", "0"])
        defer { host.stop() }
        let (address, token) = try await tcpTarget(of: host)
        let noEnvToken: [String: String?] = ["BRIDGE_INSPECTOR_TOKEN": nil]

        let wrong = try await runCLI(["snapshot", "--connect", address, "--token", String(token.reversed())], binary: binary, environment: noEnvToken)
        #expect(wrong.status == 2, "\(wrong)")
        #expect(wrong.stderr.contains("the token was refused"), "\(wrong)")
        #expect(wrong.stderr.contains("bridge-inspector: attach over USB"), "\(wrong)")
        #expect(!wrong.stdout.contains("demo") && !wrong.stderr.contains(token), "\(wrong)")

        let missing = try await runCLI(["snapshot", "--connect", address], binary: binary, environment: noEnvToken)
        #expect(missing.status == 64, "\(missing)")
        #expect(missing.stderr.contains("--connect needs the host's token"), "\(missing)")

        let both = try await runCLI(["snapshot", "--connect", address, "--token", token, "--socket", host.socket], binary: binary, environment: noEnvToken)
        #expect(both.status == 64, "\(both)")
        #expect(!both.stderr.contains(token), "\(both)")
    }

    @Test("--token-file reads the token from a file of yours alone or from standard input (-), out of the arguments ps shows; a file others can read is refused")
    func tokenFile() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario, extra: ["--listen-tcp", "0"])
        defer { host.stop() }
        let (address, token) = try await tcpTarget(of: host)
        let noEnvToken: [String: String?] = ["BRIDGE_INSPECTOR_TOKEN": nil]
        let file = host.directory.file("token")
        try (token + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(chmod(file, 0o600) == 0)

        let fromFile = try await runCLI(["snapshot", "--connect", address, "--token-file", file], binary: binary, environment: noEnvToken)
        #expect(fromFile.status == 0, "\(fromFile)")
        let fromStandardInput = try await runCLI(
            ["event", "host.ping", "--connect", address, "--token-file", "-"], binary: binary, environment: noEnvToken, stdin: token + "\r\n")
        #expect(fromStandardInput.status == 0, "\(fromStandardInput)")

        #expect(chmod(file, 0o644) == 0)
        let readable = try await runCLI(["snapshot", "--connect", address, "--token-file", file], binary: binary, environment: noEnvToken)
        #expect(readable.status == 64, "\(readable)")
        #expect(readable.stderr.contains("can be read or written by other users (mode 644)") && readable.stderr.contains("chmod 600"), "\(readable)")

        let empty = try await runCLI(["snapshot", "--connect", address, "--token-file", "-"], binary: binary, environment: noEnvToken, stdin: "")
        #expect(empty.status == 64 && empty.stderr.contains("the first line of standard input is empty"), "\(empty)")
        let both = try await runCLI(["snapshot", "--connect", address, "--token", token, "--token-file", "-"], binary: binary, environment: noEnvToken)
        #expect(both.status == 64 && both.stderr.contains("not both"), "\(both)")
        let alone = try await runCLI(["snapshot", "--token-file", file], binary: binary, environment: noEnvToken)
        #expect(alone.status == 64 && alone.stderr.contains("only go with --connect"), "\(alone)")

        for result in [fromFile, fromStandardInput, readable, empty, both, alone] {
            #expect(!result.stdout.contains(token) && !result.stderr.contains(token), "\(result)")
        }
    }

    @Test("a --connect URL with a typo is refused without printing its token (docs/cli.md: the token is never printed)")
    func typoInURLHidesToken() async throws {
        let token = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
        for connect in ["tcp://127.0.0.1:91x23?token=\(token)", "127.0.0.1:9123?token=\(token)", "tcp://127.0.0.1/?token=\(token)", "tcp://127.0.0.1:9123token=\(token)"] {
            let result = try await runCLI(["snapshot", "--connect", connect], binary: binary, environment: ["BRIDGE_INSPECTOR_TOKEN": nil])
            #expect(result.status == 64, "\(connect): \(result)")
            #expect(result.stderr.contains("cannot read --connect"), "\(connect): \(result)")
            #expect(!result.stderr.contains(token) && !result.stdout.contains(token), "\(connect): \(result)")
        }
    }

    @Test("host --listen-tcp refuses a non-loopback address without --allow-non-loopback, and warns with it")
    func nonLoopback() async throws {
        let directory = try TemporaryDirectory()
        let refused = try await runCLI(
            ["host", "--socket", directory.file("n.sock"), "--listen-tcp", "0.0.0.0:0", "--exit-when-done", "--scenario", examplePath("scenarios/capture-flow.json"), "--profile", examplePath("profiles/minimal.json")],
            binary: binary)
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("not a loopback address"), "\(refused)")
        #expect(!refused.stderr.contains("attach over USB"), "\(refused)")

        let allowed = try BinaryProcess(
            ["host", "--socket", directory.file("a.sock"), "--listen-tcp", "0.0.0.0:0", "--allow-non-loopback"], binary: binary, stdin: .closed)
        defer { allowed.kill() }
        #expect(await allowed.waitForLine(prefix: "tcp: ") != nil, "\(allowed.standardError)")
        #expect(await waitUntil(timeout: .seconds(20)) { allowed.standardError.contains("attach over USB") }, "\(allowed.standardError)")
        #expect(allowed.standardError.contains("WARNING"), "\(allowed.standardError)")
        #expect(allowed.standardError.contains("anyone on the network"), "\(allowed.standardError)")
    }
}
