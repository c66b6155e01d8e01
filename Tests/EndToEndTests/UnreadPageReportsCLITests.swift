import BridgeCore
import Foundation
import GBGBridgeInspector
import TestSupport
import Testing

/// Issue 23, point 3: what the page script reported that the inspector could not read reaches
/// `bridge-inspector snapshot` (text and --json) and `doctor`, with the page's text made safe for
/// the terminal. The app is this process: a BridgeCore host seen through the public-API adapter,
/// as an app embedding GBG's GBGBridge is, served on a socket of its own; the commands are the
/// real binary.
@MainActor
@Suite("Unread page reports in the scripting commands")
struct UnreadPageReportsCLITests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("snapshot prints the count and the last reason, made safe; --json carries them; the doctor warns with them")
    func snapshotAndDoctor() async throws {
        let directory = try TemporaryDirectory()
        let host = BridgeHost(hostVersion: "2.0.0")
        let inspector = try GBGBridgeInspector.start(api: host, hostVersion: "2.0.0", name: "unread", socketPath: directory.file("a.sock"))
        defer { inspector.stop() }
        let socket = inspector.agent.socketPath
        inspector.adapter.reportSent(json: #"{"type":"response"}"#)
        // A hostile page: an OSC 52 clipboard write and a colour change in the text it reports.
        inspector.adapter.handle(.blind(reason: "frozen \u{1B}]52;c;aGk=\u{07}\u{1B}[31m"))

        let text = try await runCLI(["snapshot", "--socket", socket], binary: binary)
        #expect(text.status == 0, "\(text)")
        let line = try #require(text.lines.first { $0.hasPrefix("unread ") }, "\(text)")
        #expect(line.contains("2 page reports of what the host sent could not be read"), "\(line)")
        #expect(line.contains("window.GBGBridge: frozen"), "\(line)")
        #expect(!text.stdout.contains("\u{1B}") && !text.stdout.contains("\u{07}"), "no control character reaches the terminal: \(text.stdout.debugDescription)")

        let json = try await runCLI(["snapshot", "--json", "--socket", socket], binary: binary)
        let state = try #require(scriptingJSON(json.stdout), "\(json)")
        #expect((state["counts"] as? [String: Any])?["unreadSentReports"] as? Int == 2, "\(state)")
        let last = try #require(state["lastUnreadSentReport"] as? [String: Any], "\(state)")
        #expect(last["direction"] as? String == "sent")
        #expect((last["reason"] as? String)?.hasSuffix("frozen \u{1B}]52;c;aGk=\u{07}\u{1B}[31m") == true, "JSON keeps the exact text: \(last)")
        let malformed = try #require(state["malformed"] as? [[String: Any]])
        #expect(malformed.first?["raw"] as? String == #"{"type":"response"}"#)

        let doctor = try await runCLI(["doctor", "--json", "--socket", socket], binary: binary)
        let report = try #require(scriptingJSON(doctor.stdout), "\(doctor)")
        let check = try #require(ScriptingDoctorTests.check(report, "unread-sent-reports"), "\(report)")
        #expect(check["status"] as? String == "warning")
        #expect(check["guideHeading"] as? String == "Messages Not Being Received by the Web Journey")
        let doctorText = try await runCLI(["doctor", "--socket", socket], binary: binary)
        #expect(doctorText.stdout.contains("[unread-sent-reports]: 2 reports of what the host sent could not be read"), "\(doctorText)")
        #expect(!doctorText.stdout.contains("\u{1B}") && !doctorText.stdout.contains("\u{07}"), "\(doctorText.stdout.debugDescription)")
    }
}
