import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

@Suite("Live updates under the person's feet")
struct LiveUpdateTests {
    @Test("The selected pending request stays selected when others come and go")
    func pendingSelectionFollowsTheRequest() {
        var model = makeModel()
        let pending = (1...3).map { Fixture.pending("p-\($0)", "nfc.read", since: Fixture.t0) }
        model.handle(.frame(.snapshot(seq: 1, state: Fixture.state(pending: pending))))
        model.press(.tab, .char("j"))
        #expect(model.selectedPending?.correlationId == "p-2")
        model.feed(2, .pendingRemoved(correlationId: "p-1"))
        #expect(model.selectedPending?.correlationId == "p-2")
        model.feed(3, .pendingAdded(Fixture.pending("p-4", "nfc.read", since: Fixture.t0)))
        #expect(model.selectedPending?.correlationId == "p-2")
        // Enter answers the request that is shown selected.
        model.press(.enter)
        #expect(respondDialog(model)?.request.correlationId == "p-2")
        model.press(.escape)
        // When the selected one goes, the selection stays in place.
        model.feed(4, .pendingRemoved(correlationId: "p-2"))
        #expect(model.selectedPending?.correlationId == "p-3")
        // A resynchronising snapshot keeps it too.
        model.press(.char("j"))
        #expect(model.selectedPending?.correlationId == "p-4")
        let reordered = [Fixture.pending("p-4", "nfc.read", since: Fixture.t0), Fixture.pending("p-3", "nfc.read", since: Fixture.t0)]
        model.handle(.frame(.snapshot(seq: 5, state: Fixture.state(pending: reordered))))
        #expect(model.selectedPending?.correlationId == "p-4")
    }

    @Test("requests a snapshot leaves out (counts.pendingOmitted) are shown as a count that follows their answers")
    func omittedPendingCount() {
        var model = makeModel()
        var state = Fixture.state(pending: [Fixture.pending("p-1", "nfc.read", since: Fixture.t0)])
        state.counts.pendingOmitted = 2
        model.handle(.frame(.snapshot(seq: 1, state: state)))
        #expect(model.screen.contains { $0.contains("Pending 1 (+2 not listed)") })
        // An answer to one of the requests not listed lowers the count; the listed one stays.
        model.feed(2, .pendingRemoved(correlationId: "p-900"))
        #expect(model.screen.contains { $0.contains("Pending 1 (+1 not listed)") })
        model.feed(3, .pendingRemoved(correlationId: "p-901"))
        #expect(model.screen.contains { $0.contains("Pending 1 ─") })
        model.feed(4, .pendingRemoved(correlationId: "p-1"))
        #expect(model.screen.contains { $0.contains("Pending 0") })
    }

    @Test("An is:pending filter drops a request once it is answered, and shows a new one")
    func pendingFilterStaysCurrent() {
        var model = journeyModel()
        model.press(.char("f"))
        model.type("is:pending")
        model.press(.enter)
        #expect(model.visible.count == 2)
        model.feed(12, .pendingRemoved(correlationId: "nfc-1"))
        model.feed(13, .traffic(Fixture.response(seq: 13, id: "nfc-1", action: "nfc.read", at: Fixture.t0)))
        #expect(model.visible.count == 1)
        #expect(!model.messageLines.contains { $0.contains("nfc-1") })
        model.feed(14, .traffic(Fixture.request(seq: 14, id: "late-1", action: "nfc.read", at: Fixture.t0)))
        model.feed(15, .pendingAdded(Fixture.pending("late-1", "nfc.read", since: Fixture.t0)))
        #expect(model.visible.count == 2)
        #expect(model.messageLines[1].contains("late-1"))
    }

    @Test("An is:pending filter keeps the row being read selected when the list changes")
    func pendingFilterKeepsSelection() {
        var model = journeyModel()
        let pending = ["a", "b", "c"].map { Fixture.pending("q-\($0)", "nfc.read", since: Fixture.t0) }
        for (offset, item) in pending.enumerated() {
            model.feed(12 + offset * 2, .traffic(Fixture.request(seq: 12 + offset * 2, id: item.correlationId, action: "nfc.read", at: Fixture.t0)))
            model.feed(13 + offset * 2, .pendingAdded(item))
        }
        model.press(.char("f"))
        model.type("is:pending id:q-")
        model.press(.enter, .char("k"))
        #expect(model.selectedEntry?.correlationId == "q-b")
        model.feed(20, .pendingRemoved(correlationId: "q-a"))
        #expect(model.visible.count == 2)
        #expect(model.selectedEntry?.correlationId == "q-b")
    }

    @Test("J while paused shows the cause even if it arrived after the pause")
    func jumpWhilePaused() {
        var model = journeyModel()
        model.press(.char(" "))
        let bad = WireMalformed(seq: 12, time: Fixture.t0, raw: "nope", bytes: 4, reason: "invalid JSON at line 1, column 1")
        model.feed(12, .malformed(bad))
        model.feed(13, .lastError(WireError(seq: 13, time: Fixture.t0, text: "Failed to decode message: invalid JSON", cause: 12)))
        model.press(.char("J"))
        #expect(model.selectedEntry?.seq == 12)
        #expect(model.selectedEntry?.kind == .malformed)
        #expect(model.pausedAt == nil)
        #expect(!model.footer.contains("filter cleared"))
    }
}

@Suite("Long texts are readable in full")
struct LongTextTests {
    static let refusal =
        "request nfc-1 is not in pendingRequests: it was answered by the app 12 ms ago (status success); reload the journey to get a new request, or pick another one in the Pending pane"

    @Test("The action log wraps the host's refusal so all of it can be read at 80 columns")
    func actionLogWraps() {
        var model = journeyModel(width: 80, height: 24)
        model.press(.tab, .enter, .enter)
        let label = "respond success to nfc.read nfc-1"
        model.handle(.commandSent(id: "c-1", label: label))
        model.handle(.frame(.reply(id: "c-1", result: .failure(InspectorError(code: "not_pending", message: Self.refusal)), sent: [])))
        model.press(.char("A"))
        let inner = text(in: Rect(x: 1, y: 2, width: 78, height: 20), of: model.render())
        #expect(inner[0].hasPrefix("22:13:20.000  ✗ respond success to nfc.read nfc-1:"))
        let words = inner.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(words.contains(label + ": " + Self.refusal))
        #expect(inner[1].hasPrefix(String(repeating: " ", count: 16)))
    }

    @Test("The lastError history wraps long errors, and a word longer than the line is broken, not cut")
    func errorHistoryWraps() {
        var model = journeyModel(width: 80, height: 24)
        let path = String(repeating: "abcdefghij", count: 12)
        let long = "Failed to decode message: invalid JSON at line 1, column 17: expected ':' after an object key in " + path + " end"
        model.feed(12, .lastError(WireError(seq: 12, time: Fixture.t0, text: long, cause: 10)))
        model.press(.char("E"))
        let inner = text(in: Rect(x: 1, y: 2, width: 78, height: 20), of: model.render())
        #expect(inner[0].hasPrefix("22:13:20.000  → Failed to decode message"))
        let joined = inner.prefix { !$0.contains("22:13:19.000") }.map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        #expect(joined.replacingOccurrences(of: " ", with: "").contains(long.replacingOccurrences(of: " ", with: "")))
        // The older entries follow, and Enter still jumps from the newest.
        #expect(inner.contains { $0.hasPrefix("22:13:19.000  → Failed to decode message: missing required field") })
        model.press(.char("j"))
        model.press(.enter)
        #expect(model.selectedEntry?.seq == 10)
    }

    @Test("Moving through a long history keeps the selected entry on screen")
    func errorHistoryScrolls() {
        var model = journeyModel(width: 80, height: 24)
        for seq in 12..<40 {
            model.feed(seq, .lastError(WireError(seq: seq, time: Fixture.t0, text: "error number \(seq) " + String(repeating: "word ", count: 30), cause: nil)))
        }
        model.press(.char("E"), .char("G"))
        #expect(model.screenText.contains("WebView not attached"))
        model.press(.char("g"))
        #expect(model.screenText.contains("error number 39"))
    }
}

@Suite("Requests from a page that has gone")
struct OrphanedPendingTests {
    // Issue: a page reload starts a fresh bridge context, and the previous page's requests that
    // are still pending must be visible as such (Troubleshooting: Messages Not Being Received by
    // the Web Journey, cause 4: "Page navigated away").
    @Test("when the journey goes, its pending requests are marked ⊘ until answered; a new page's are not")
    func markedWhenThePageGoes() {
        var model = journeyModel()
        #expect(model.live.orphanedPending.isEmpty)
        #expect(model.screen.line(containing: "nfc.read")?.contains("⊘") == false)

        model.feed(12, .journey(attached: false))
        #expect(model.live.orphanedPending == ["nfc-1", "cap-2"])
        #expect(model.screen.line(containing: "⊘ nfc.read") != nil, "\(model.screenText)")

        // A new page attaches and sends a request of its own: not marked.
        model.feed(13, .journey(attached: true))
        model.feed(14, .pendingAdded(Fixture.pending("nfc-2", "nfc.read", since: Fixture.t0)))
        #expect(!model.live.orphanedPending.contains("nfc-2"))
        #expect(model.screen.contains { $0.contains("nfc.read") && !$0.contains("⊘") })

        // Answered: no longer pending, no longer marked.
        model.feed(15, .pendingRemoved(correlationId: "nfc-1"))
        #expect(model.live.orphanedPending == ["cap-2"])
    }

    @Test("a snapshot taken while no journey is attached marks every pending request")
    func snapshotWithoutJourney() {
        var state = Fixture.journeyState()
        state.journeyAttached = false
        var model = makeModel()
        model.handle(.frame(.snapshot(seq: 11, state: state)))
        #expect(model.live.orphanedPending == ["nfc-1", "cap-2"])
        // Reattached to the same agent with a journey attached: what is still pending stays marked.
        model.handle(.disconnected)
        model.handle(.frame(Fixture.journeySnapshot()))
        #expect(model.live.orphanedPending == ["nfc-1", "cap-2"])
    }
}
