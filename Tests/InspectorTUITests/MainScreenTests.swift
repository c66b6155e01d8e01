import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

@Suite("Main screen")
struct MainScreenTests {
    static let sizes = [Size(width: 120, height: 40), Size(width: 80, height: 24)]

    // MARK: Status line

    @Test("The status line names the host, its pid and version, the connection and the rate", arguments: sizes)
    func statusLine(size: Size) {
        let model = journeyModel(width: size.width, height: size.height)
        let status = model.screen[0]
        #expect(status.contains("demo-app (pid 4242) v2.1.0 ios"))
        #expect(status.contains("● connected"))
        // Six messages (seq 5 to 10) arrived in the last five seconds.
        #expect(status.contains("1.2 msg/s"))
        #expect(!status.contains("filter"))
        #expect(!status.contains("PAUSED"))
    }

    @Test("Before the snapshot the status line shows the socket and 'connecting'")
    func statusBeforeSnapshot() {
        let model = makeModel()
        #expect(model.screen[0].contains(Fixture.socketPath))
        #expect(model.screen[0].contains("○ connecting"))
        #expect(model.messageLines[0] == "waiting for traffic…")
    }

    @Test("The rate is messages per second over the last five seconds, following the clock")
    func rateFollowsClock() {
        var model = journeyModel()
        model.handle(.tick(Fixture.t0 + 10_000))
        #expect(model.screen[0].contains("0.0 msg/s"))
        for seq in 12...16 {
            model.feed(seq, .traffic(Fixture.request(seq: seq, id: "r\(seq)", action: "a.b", at: Fixture.t0 + 9_000)))
        }
        #expect(model.screen[0].contains("1.0 msg/s"))
        model.handle(.tick(Fixture.t0 + 14_001))
        #expect(model.screen[0].contains("0.0 msg/s"))
    }

    @Test("An active filter is named in the status line, also at 80 columns", arguments: sizes)
    func filterInStatus(size: Size) {
        var model = journeyModel(width: size.width, height: size.height)
        model.press(.char("f"))
        model.type("type:request")
        model.press(.enter)
        #expect(model.screen[0].contains("filter: type:request"))
    }

    @Test("Pause is named in the status line and in the Messages title, also at 80 columns", arguments: sizes)
    func pauseVisible(size: Size) {
        var model = journeyModel(width: size.width, height: size.height)
        model.press(.char(" "))
        #expect(model.screen[0].contains("PAUSED"))
        #expect(model.messagesTitle.contains("PAUSED"))
        model.press(.char(" "))
        #expect(!model.screen[0].contains("PAUSED"))
    }

    @Test("A recording opened read-only says so in the status line")
    func readOnlyStatus() {
        let model = InspectorModel(recording: [Fixture.journeySnapshot()], size: Size(width: 120, height: 40), path: "session.jsonl")
        #expect(model.screen[0].contains("recording (read-only)"))
        #expect(!model.screen[0].contains("● connected"))
    }

    @Test("The status line says when no journey is attached, and stops saying it when one attaches")
    func journeyStatus() {
        var model = journeyModel()
        #expect(!model.screen[0].contains("no journey attached"))
        model.feed(12, .journey(attached: false))
        #expect(model.screen[0].contains("● connected │ no journey attached"))
        model.feed(13, .journey(attached: true))
        #expect(!model.screen[0].contains("no journey attached"))
    }

    // MARK: lastError

    @Test("The lastError banner shows the count, the time, the text and the keys, J only with a cause")
    func errorBanner() {
        let model = journeyModel()
        #expect(
            model.screen[1]
                == " ⚠ lastError (2) 22:13:19.000 Failed to decode message: missing required field 'payload.acti… [E:history J:jump C:clear]")
        let narrow = journeyModel(width: 80, height: 24)
        #expect(narrow.screen[1] == " ⚠ lastError (2) 22:13:19.000 Failed to decode messa… [E:history J:jump C:clear]")

        var noCause = makeModel()
        let error = WireError(seq: 3, time: Fixture.t0, text: "WebView not attached", cause: nil)
        noCause.handle(.frame(.snapshot(seq: 3, state: Fixture.state(lastError: error, errorHistory: [error]))))
        #expect(noCause.screen[1].hasPrefix(" ⚠ lastError (1) 22:13:20.000 WebView not attached   "))
        #expect(noCause.screen[1].hasSuffix("   [E:history C:clear]"))
        #expect(noCause.screen[1].count == 120)
    }

    @Test("Without a lastError the banner says none, and counts earlier errors")
    func errorBannerClear() {
        var model = makeModel()
        model.handle(.frame(Fixture.emptySnapshot()))
        #expect(model.screen[1] == " lastError: none")
        model.feed(1, .lastError(WireError(seq: 1, time: Fixture.t0, text: "boom", cause: nil)))
        #expect(model.screen[1].contains("⚠ lastError (1)"))
        #expect(model.screen[1].contains("boom"))
        model.feed(2, .lastError(WireError(seq: 2, time: Fixture.t0 + 1, text: nil, cause: nil)))
        #expect(model.screen[1] == " lastError: none (1 earlier, E for history)")
    }

    // MARK: Messages

    @Test("Message rows: time, direction, type, action, short id, status and latency")
    func messageRows() {
        let model = journeyModel()
        let rows = model.messageLines
        let width = model.layout.messages.width - 2
        #expect(rows[0].hasPrefix("22:13:10.000 OUT evt  host.ready "))
        #expect(rows[0].hasSuffix(" ios…00000001"))  // a long id: its start, an ellipsis, its end
        #expect(rows[1].hasPrefix("22:13:11.000 IN  req  capability.query "))
        #expect(rows[1].hasSuffix(" cap-1"))
        #expect(rows[2].hasPrefix("22:13:11.042 OUT resp capability.query "))
        #expect(rows[2].contains(" success ") && rows[2].contains(" 42ms "))
        #expect(rows[2].hasSuffix(" cap-1"))
        // 78 columns: a request has no status, so its action takes that room and stays whole.
        #expect(rows[3].hasPrefix("22:13:14.000 IN  req  camera.document.capture "))
        #expect(rows[3].hasSuffix(" doc-7"))
        #expect(rows[8].hasPrefix("22:13:18.620 OUT resp document.upload "))
        // Narrow, an error shows its code alone (the code says it is an error).
        #expect(rows[8].contains(" INVALID_REQUEST ") && rows[8].contains(" 120ms "))
        #expect(rows[8].hasSuffix(" up-1"))
        #expect(rows[9] == "22:13:19.000 IN  BAD  malformed: missing required field 'payload.action'")
        #expect(rows[10] == "")
        // The ids of requests, responses and events start in one column (issue 13, trap 7), and
        // the statuses of responses in another.
        #expect(rows[2].count <= width && rows[8].count <= width)
        #expect(rows[2].range(of: " success")?.lowerBound.utf16Offset(in: rows[2]) == rows[8].range(of: " INVALID_REQUEST")?.lowerBound.utf16Offset(in: rows[8]))
        let idColumns = Set([(0, "ios…00000001"), (1, "cap-1"), (2, "cap-1"), (3, "doc-7"), (4, "nfc-1"), (5, "cap-2"), (6, "ios…00000002"), (7, "up-1"), (8, "up-1")].map { row, id in
            rows[row].range(of: " " + id).map { rows[row].distance(from: rows[row].startIndex, to: $0.lowerBound) } ?? -row
        })
        #expect(idColumns.count == 1)
    }

    @Test("In a wide pane every row keeps its id, status and latency in the same columns")
    func messageRowsAlignedWhenWide() {
        let model = journeyModel(width: 170, height: 40)
        let rows = model.messageLines
        #expect(model.layout.messages.width - 2 >= 110)
        func column(_ row: Int, _ text: String) -> Int? {
            rows[row].range(of: " " + text + " ").map { rows[row].distance(from: rows[row].startIndex, to: $0.lowerBound) }
                ?? rows[row].range(of: " " + text).map { rows[row].distance(from: rows[row].startIndex, to: $0.lowerBound) }
        }
        // A request's id sits above its response's id, and responses' statuses line up.
        let ids = [column(1, "cap-1"), column(2, "cap-1"), column(3, "doc-7"), column(7, "up-1"), column(8, "up-1")]
        #expect(Set(ids.compactMap { $0 }).count == 1, "\(ids)\n\(rows.prefix(9).joined(separator: "\n"))")
        #expect(ids.allSatisfy { $0 != nil })
        #expect(column(2, "success") == column(8, "error INVALID_REQUEST"))
        #expect(rows[2].contains(" 42ms ") && rows[8].contains(" 120ms "))
        #expect(column(2, "42ms") == column(8, "120ms").map { $0 + 1 })  // right-aligned: both end in one column
    }

    @Test("Rows at 80 columns keep every column and shorten the action")
    func messageRowsNarrow() {
        var model = journeyModel(width: 80, height: 24)
        model.feed(12, .traffic(Fixture.request(seq: 12, id: "long-1", action: "com.example.very.long.action.name.for.testing", at: Fixture.t0)))
        model.feed(13, .traffic(Fixture.request(seq: 13, id: "long-2", action: String(repeating: "x", count: 100), at: Fixture.t0)))
        let rows = model.messageLines.filter { !$0.isEmpty }
        let first = rows[rows.count - 2]
        let second = rows[rows.count - 1]
        #expect(first.hasPrefix("22:13:20.000 IN  req  com.example.very.") && first.contains("… "))
        #expect(first.hasSuffix(" long-1"))
        #expect(second.hasPrefix("22:13:20.000 IN  req  xxxx"))
        #expect(second.contains("x… "))
        #expect(second.hasSuffix(" long-2"))
        #expect(first.count == second.count)
        #expect(TextWidth.width(of: second) <= 78)
    }

    @Test("A response carries the latency from its request")
    func latency() {
        var model = makeModel()
        model.handle(.frame(Fixture.emptySnapshot()))
        model.feed(1, .traffic(Fixture.request(seq: 1, id: "q-1", action: "nfc.read", at: Fixture.t0)))
        model.feed(2, .traffic(Fixture.response(seq: 2, id: "q-1", action: "nfc.read", at: Fixture.t0 + 2_345, status: .cancelled)))
        #expect(model.messageLines[1].hasSuffix(" q-1"))
        #expect(model.messageLines[1].contains(" cancelled ") && model.messageLines[1].contains(" 2.3s "))
        // A response without its request in the log has no latency.
        model.feed(3, .traffic(Fixture.response(seq: 3, id: "q-9", action: "nfc.read", at: Fixture.t0 + 3_000)))
        #expect(model.messageLines[2].hasSuffix(" q-9"))
        #expect(model.messageLines[2].contains(" success ") && !model.messageLines[2].contains("ms "))
    }

    @Test("Hand-made messages carry ✎; messages from the host or the journey do not")
    func handMadeMark() {
        let rows = journeyModel().messageLines
        #expect(rows.count(containing: "✎") == 1)
        #expect(rows[6].contains("evt  ✎ host.ping"))
        var model = makeModel()
        model.handle(.frame(Fixture.emptySnapshot()))
        model.feed(1, .traffic(Fixture.request(seq: 1, id: "q-1", action: "nfc.read", at: Fixture.t0)))
        model.feed(2, .traffic(Fixture.response(seq: 2, id: "q-1", action: "nfc.read", at: Fixture.t0 + 5, origin: .inspector)))
        #expect(!model.messageLines[0].contains("✎"))
        #expect(model.messageLines[1].contains("resp ✎ nfc.read"))
    }

    @Test("A sent message that was not delivered says UNDELIVERED")
    func undelivered() {
        var model = makeModel()
        model.handle(.frame(Fixture.emptySnapshot()))
        let event = Fixture.traffic(
            seq: 1, .sent, Fixture.message("ios-event-1", .event, "host.ping", at: Fixture.t0), at: Fixture.t0,
            deliveryError: "WebView not attached")
        model.feed(1, .traffic(event))
        #expect(model.messageLines[0].contains(" UNDELIVERED ") && model.messageLines[0].hasSuffix(" ios-event-1"))
    }

    // MARK: Pending

    /// Checks one row of the Pending pane.
    static func expectPending(_ line: String?, _ action: String, _ id: String, age: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let line = line ?? ""
        #expect(line.hasPrefix(String(action.prefix(10))), "\(line)", sourceLocation: sourceLocation)
        #expect(line.contains(" \(id) "), "\(line)", sourceLocation: sourceLocation)
        #expect(line.hasSuffix(" " + age), "\(line)", sourceLocation: sourceLocation)
    }

    @Test("The Pending pane lists action, id and live age", arguments: sizes)
    func pendingPane(size: Size) {
        var model = journeyModel(width: size.width, height: size.height)
        Self.expectPending(model.pendingLines[0], "nfc.read", "nfc-1", age: "4.0s")
        Self.expectPending(model.pendingLines[1], "capability.query", "cap-2", age: "!3.0s")
        #expect(model.screen.contains { $0.contains("Pending 2") })
        model.handle(.tick(Fixture.t0 + 1_000))
        Self.expectPending(model.pendingLines[0], "nfc.read", "nfc-1", age: "5.0s")
        Self.expectPending(model.pendingLines[1], "capability.query", "cap-2", age: "!4.0s")
        model.handle(.tick(Fixture.t0 + 2_500))
        Self.expectPending(model.pendingLines[1], "capability.query", "cap-2", age: "✗5.5s")
        model.feed(12, .pendingRemoved(correlationId: "nfc-1"))
        Self.expectPending(model.pendingLines[0], "capability.query", "cap-2", age: "✗5.5s")
        #expect(model.screen.contains { $0.contains("Pending 1") })
        model.feed(13, .pendingRemoved(correlationId: "cap-2"))
        #expect(model.pendingLines[0] == "no request is waiting")
    }

    @Test(
        "Pending ages are marked '!' from half the journey's timeout and '✗' once past it (abandoned, as JourneyTimeouts says)",
        arguments: [
            // capability.query: 5 s (discoverCapabilities); anything else: 30 s (request).
            ("capability.query", 2_499.0, " "), ("capability.query", 2_500, "!"), ("capability.query", 5_000, "!"),
            ("capability.query", 5_001, "✗"), ("nfc.read", 14_999, " "), ("nfc.read", 15_000, "!"), ("nfc.read", 30_000, "!"),
            ("nfc.read", 30_001, "✗"), ("camera.document.capture", 5_000, " "), ("camera.document.capture", 31_000, "✗"),
        ])
    func pendingMarks(action: String, age: Double, mark: String) {
        var model = makeModel()
        let state = Fixture.state(pending: [Fixture.pending("p-1", action, since: Fixture.t0)])
        model.handle(.frame(.snapshot(seq: 1, state: state)))
        model.handle(.tick(Fixture.t0 + age))
        let line = model.pendingLines[0]
        let ageText = TimeFormat.duration(ms: age)
        #expect(line.hasSuffix(mark + ageText), "\(line)")
    }

    @Test("Pending requests past the pane's height stay reachable")
    func pendingScrolls() {
        var model = makeModel(width: 80, height: 24)
        let pending = (1...12).map { Fixture.pending("p-\($0)", "action.\($0)", since: Fixture.t0 - Double($0) * 1000) }
        model.handle(.frame(.snapshot(seq: 1, state: Fixture.state(pending: pending))))
        #expect(model.pendingLines.count == 3)
        model.press(.tab)
        model.press(.char("G"))
        #expect(model.selectedPending?.correlationId == "p-12")
        #expect(model.pendingLines.contains { $0.contains("p-12") })
    }

    // MARK: Slots

    @Test("The Slots pane shows a busy slot with its request and age, and an idle slot without a handler", arguments: sizes)
    func slotsPane(size: Size) throws {
        var model = journeyModel(width: size.width, height: size.height)
        var lines = model.slotLines
        let document = try #require(lines.first { $0.hasPrefix("document") })
        #expect(document.contains("BUSY") && document.contains("6.0s") && document.contains("doc-7"))
        #expect(lines[1].contains("supported"))
        let selfie = try #require(lines.firstIndex { $0.hasPrefix("selfie") })
        #expect(lines[selfie].contains("idle"))
        #expect(lines[selfie + 1].contains("no handler"))
        model.handle(.tick(Fixture.t0 + 64_000))
        #expect(model.slotLines[0].contains("BUSY 1m10s"))
        model.feed(12, .slot(Fixture.slot(.document, enabled: false, permission: .denied)))
        lines = model.slotLines
        #expect(lines[0].hasPrefix("document") && lines[0].contains("idle") && !lines[0].contains("BUSY"))
        #expect(lines[1].contains("OFF") && lines[1].contains("unsupported"))
        #expect(lines[1].contains("perm") && lines[1].contains("denied"))
    }

    /// The usual terminal sizes: the Slots pane is 78, 38 and 50 columns wide inside.
    static let usualSizes = [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 160, height: 50)]

    @Test("The Slots pane shows both slots' permission state, first and whole, at the usual sizes", arguments: usualSizes)
    func slotsPermission(size: Size) throws {
        // The journey: document granted, selfie notDetermined (the longest state) with no handler.
        let model = journeyModel(width: size.width, height: size.height)
        let lines = model.slotLines
        let document = try #require(lines.firstIndex { $0.hasPrefix("document") })
        let selfie = try #require(lines.firstIndex { $0.hasPrefix("selfie") })
        // The widest wording that fits both slots: full words at 80 columns, "perm" at 160, and
        // a smaller indent as well in the 38 columns of 120x40.
        let expected: [Int: (document: String, selfie: String)] = [
            80: ("         permission granted · on · supported", "         permission notDetermined · on · no handler"),
            120: ("  perm granted · on · supported", "  perm notDetermined · on · no handler"),
            160: ("         perm granted · on · supported", "         perm notDetermined · on · no handler"),
        ]
        #expect(lines[document + 1] == expected[size.width]?.document)
        #expect(lines[selfie + 1] == expected[size.width]?.selfie)

        // Every state, on every kind of slot, keeps its permission state whole in front.
        for permission in PermissionState.allCases {
            for (enabled, hasHandler) in [(true, true), (false, true), (true, false), (false, false)] {
                var model = journeyModel(width: size.width, height: size.height)
                model.feed(12, .slot(Fixture.slot(.document, active: "doc-7", since: Fixture.t0 - 6_000, hasHandler: hasHandler, enabled: enabled, permission: permission)))
                model.feed(13, .slot(Fixture.slot(.selfie, hasHandler: hasHandler, enabled: enabled, permission: permission)))
                let lines = model.slotLines
                for kind in ["document", "selfie"] {
                    let index = try #require(lines.firstIndex { $0.hasPrefix(kind) })
                    let flags = lines[index + 1].trimmingCharacters(in: .whitespaces)
                    #expect(flags.hasPrefix("perm"), "\(size) \(kind): \(flags)")
                    #expect(flags.contains(permission.rawValue + " · "), "\(size) \(kind): \(flags)")
                    // The rest may be in full words when they fit ("enabled", "no handler: requests go to pending").
                    if hasHandler {
                        #expect(flags.hasSuffix(enabled ? " supported" : " unsupported"), "\(size) \(kind): \(flags)")
                    } else {
                        #expect(flags.contains(" no handler"), "\(size) \(kind): \(flags)")
                    }
                    #expect(flags.contains(enabled ? " on " : " OFF ") || flags.contains(enabled ? " enabled " : " DISABLED "), "\(size) \(kind): \(flags)")
                }
            }
        }
    }

    @Test("At the minimum size both slots still show, one line each")
    func slotsCompact() {
        let model = journeyModel(width: 60, height: 16)
        let lines = model.slotLines
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("document") && lines[0].contains("BUSY") && lines[0].contains("doc-7"))
        #expect(lines[1].hasPrefix("selfie") && lines[1].contains("idle"))
    }

    // MARK: Footer

    @Test("The footer shows the keys for the focused pane")
    func footerKeys() {
        var model = journeyModel()
        #expect(model.footer == " ? help  Enter detail  f filter  / search  r respond  e event  Tab pane  space pause  E errors  D doctor  q quit")
        model.press(.tab)
        #expect(model.footer.contains("Enter respond"))
        #expect(model.footer.contains("j/k select"))
        model.press(.tab)
        #expect(model.footer.contains("c complete  x cancel  t on/off  P permission"))
        model.press(.char(" "))
        model.handle(.tick(Fixture.t0 + 10_000))  // the "paused" flash has gone
        #expect(model.footer.contains("space resume"))
    }

    @Test("Tab moves the focus mark between panes")
    func focusMark() {
        var model = journeyModel()
        #expect(model.screen[2].contains("▶ Messages"))
        model.press(.tab)
        #expect(model.screen[2].contains("▶ Pending"))
        #expect(!model.screen[2].contains("▶ Messages"))
        model.press(.tab)
        #expect(model.screen.contains { $0.contains("▶ Capture slots") })
        model.press(.backTab, .backTab)
        #expect(model.screen[2].contains("▶ Messages"))
    }

    @Test("A flash replaces the footer and goes away with the clock")
    func flashExpires() {
        var model = journeyModel()
        #expect(model.flash == nil)
        model.press(.char(" "))
        #expect(model.footer.contains("paused"))
        model.handle(.tick(Fixture.t0 + 3_999))
        #expect(model.footer.contains("paused"))
        model.handle(.tick(Fixture.t0 + 4_000))
        #expect(model.footer.contains("? help"))
    }

    // The golden screens (the journey at 120x40 and 80x24, the respond dialog with the BUSY
    // template, paused and filtered) are GoldenScreenTests' main, respond and main-paused.
}
