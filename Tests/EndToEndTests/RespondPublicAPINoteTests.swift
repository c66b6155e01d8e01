import Foundation
import TestSupport
import Testing

/// Issue 24, point 11: on a host seen through GBGBridge's public API, what `respond` prints as
/// sent comes from the page's report, which the page can forge; `respond` says so.
@Suite("Scripting: respond says when what it printed is the page's report", .serialized)
struct RespondPublicAPINoteTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("respond --help says a forged page report can replace what it says it sent on a public-API host")
    func help() async throws {
        let help = try await runCLI(["respond", "--help"], binary: binary, environment: ["COLUMNS": "200"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("which the journey can forge"), "\(help)")
    }

    @Test("on a public-API host respond notes on standard error that the message printed is the page's report; on a native host it does not")
    func note() async throws {
        for (extra, noted) in [(["--inspect-via", "public-api"], true), ([], false)] {
            let host = try await ScriptedHost(binary: binary, scenario: replayScenario, extra: extra)
            defer { host.stop() }
            #expect(await host.waitForPending { $0.contains("nfc-1") })
            let answered = try await host.run(["respond", "nfc-1", "--data", #"{"uid":"04A2"}"#], binary: binary)
            #expect(answered.status == 0, "\(answered)")
            #expect(answered.stdout.contains("nfc-1"), "\(answered)")
            #expect(answered.stderr.contains("what the page reported receiving, which the page itself can forge") == noted, "\(extra): \(answered)")
        }
    }
}
