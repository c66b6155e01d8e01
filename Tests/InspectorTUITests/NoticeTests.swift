import BridgeCore
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Issue 27, trap 2: a long notice was cut at the terminal's width (the part a person acts on,
/// such as ``print it instead with `bridge-inspector tail -``, was gone), the action log did not
/// keep notices, and dialog subtitles were cut the same way. At 80x24.
@Suite("Notices are readable in full, and kept")
struct NoticeTests {
    /// What a host seen through GBGBridge's public API says about `i` (PublicAPIHost's reason).
    static let injectReason =
        "GBGBridge's public API cannot be handed a message as if the page had sent it, and this inspector was started without the journey's page (JourneyPage); to send one as the journey, run window.webkit.messageHandlers.gbgBridge.postMessage(…) in Safari Web Inspector's console (the inspector's Y key copies that line)"

    static let publicAPIHost = WireHostInfo(
        name: "MyApp", pid: 901, hostVersion: "3.0.0", environment: "ios", startedAt: Fixture.t0 - 60_000,
        inspection: HostFeature.publicAPIPath, unsupported: [HostFeature.inject.rawValue: injectReason])

    /// The rows at the bottom of the screen that hold the notice, joined as one text.
    static func noticeText(_ model: InspectorModel, rows: Int) -> String {
        model.screen.suffix(rows).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    @Test("the public-API explanation of i is shown whole at 80x24, wrapped over the rows above the footer")
    func longNoticeWraps() throws {
        var model = makeModel(width: 80, height: 24)
        model.handle(.frame(Fixture.journeySnapshot(host: Self.publicAPIHost)))
        model.press(.char("i"))
        let expected = "not available for this host: " + Self.injectReason
        let top = try #require(model.screen.index(containing: "not available for this host"), "\(model.screenText)")
        let rows = 24 - top
        #expect(rows > 1 && rows <= InspectorModel.noticeRowLimit(height: 24))
        #expect(Self.noticeText(model, rows: rows) == expected, "\(model.screenText)")
        #expect(model.notice == expected)
        // The status line and the panes' top are untouched; the rows above the notice are the panes'.
        #expect(model.screen[0].contains("MyApp"))
        #expect(!model.screen[23 - rows].contains("not available"))
        // When it goes, the footer's hints and the panes come back.
        model.handle(.tick(Fixture.t0 + 9_000))
        #expect(model.footer.contains("? help"), "\(model.footer)")
    }

    @Test("the hint of a message too large to copy keeps its command at 80x24")
    func copyHintWhole() {
        var model = makeModel(width: 80, height: 24)
        let big = String(repeating: "x", count: ClipboardSequence.maxPayloadBytes)
        let request = Fixture.request(seq: 1, id: "big-1", action: "document.upload", at: Fixture.t0, data: ["image": .string(big)])
        model.handle(.frame(.snapshot(seq: 1, state: Fixture.state(messages: [request]))))
        model.press(.char("y"))
        let text = model.screen.suffix(6).joined(separator: "\n")
        #expect(text.contains("print it instead with `bridge-inspector tail --json --filter id:big-1`"), "\(model.screenText)")
    }

    @Test("a notice longer than the rows it may take says where to read it all; the action log has it in full, with its time")
    func tooLongGoesToTheLog() throws {
        var model = makeModel(width: 80, height: 24)
        model.handle(.frame(Fixture.journeySnapshot()))
        let words = (1...120).map { "word\($0)" }.joined(separator: " ")
        model.handle(.notice(words, isError: true))
        let limit = InspectorModel.noticeRowLimit(height: 24)
        #expect(model.footer.hasSuffix("… (A: all of it)"), "\(model.footer)")
        #expect(!model.screen[23 - limit].contains("word1 "), "no more than \(limit) rows")
        model.handle(.tick(Fixture.t0 + 9_000))
        #expect(model.flash == nil)
        model.press(.char("A"))
        let log = model.screenText
        #expect(log.contains("22:13:20.000  ! word1 word2"), "\(log)")
        #expect(log.contains("word120"), "\(log)")
    }

    @Test("every notice is kept in the action log, in time order with the actions; a repeated one is counted")
    func actionLogKeepsNotices() {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("J"))                      // "filter cleared…"? no: jumps to the cause
        model.handle(.tick(Fixture.t0 + 1_000))
        model.press(.char("C"), .char("y"))          // clear lastError: an action
        model.handle(.tick(Fixture.t0 + 2_000))
        model.handle(.notice("host restarted", isError: false))
        model.handle(.notice("host restarted", isError: false))
        #expect(model.notices.last?.repeats == 2)
        model.press(.char("A"))
        let lines = model.screen
        let action = lines.index(containing: "clear lastError")
        let notice = lines.index(containing: "» host restarted (×2)")
        #expect(action != nil && notice != nil, "\(model.screenText)")
        if let action, let notice { #expect(action < notice) }
        #expect(lines.contains { $0.contains("22:13:22.000") && $0.contains("host restarted") }, "\(model.screenText)")
        // The outcome of an action is its own line's mark, not a second notice.
        #expect(!model.notices.contains { $0.text.contains("clear lastError") })
    }

    @Test("a dialog's subtitle wraps at 80x24 instead of being cut")
    func dialogSubtitleWraps() {
        var model = makeModel(width: 80, height: 24)
        let data: [String: JSONValue] = ["side": "front", "country": "GB", "documentType": "passport", "lastField": "the-end-of-the-subtitle"]
        let message = Fixture.message("doc-9", .request, "camera.document.capture", at: Fixture.t0 - 2_000, data: data)
        let pending = WirePending(correlationId: "doc-9", action: "camera.document.capture", since: Fixture.t0 - 2_000, message: message)
        model.handle(.frame(.snapshot(seq: 1, state: Fixture.state(pending: [pending]))))
        model.press(.tab, .enter)
        let first = model.screen.index(containing: "request doc-9, waiting 2.0s")
        #expect(first != nil, "\(model.screenText)")
        // The request's data goes on to the next line rather than off the dialog's edge.
        let rows = model.screen.map { $0.replacingOccurrences(of: "│", with: " ").trimmingCharacters(in: .whitespaces) }
        #expect(rows.contains { $0.contains("the-end-of-the-subtitle") }, "\(model.screenText)")
    }
}
