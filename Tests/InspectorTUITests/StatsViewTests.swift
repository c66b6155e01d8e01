import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// The statistics view (`S`, issue 16 part 3): per-action counts, error rate and latency
/// percentiles from the threaded log, updating as traffic arrives.
@Suite("Statistics view")
struct StatsViewTests {
    static let t0 = Fixture.t0

    @Test("S shows each action of the journey with exact counts, error rate and latencies; the most requested first")
    func opensWithExactNumbers() {
        var model = journeyModel(width: 140, height: 40)
        model.press(.char("S"))
        let screen = model.screen
        #expect(screen[1].contains("Statistics per action, live"))
        // Fixture.journeyState: two capability queries (one answered in 42 ms), a document
        // capture and an nfc.read pending, an upload refused after 120 ms, two host events.
        #expect(screen.contains { $0.contains("5 requests for 4 actions: 2 answered, 3 unanswered; error rate 50%; latency p50 42ms, p95 120ms, max 120ms; 2 events") })
        let header = screen.index(containing: "ACTION") ?? -1
        let rows = screen[(header + 1)...].prefix(6).map { $0.replacingOccurrences(of: "│", with: "").trimmingCharacters(in: .whitespaces) }
        #expect(rows == [
            "capability.query                2         1           1       0          0%   42ms   42ms   42ms       0",
            "camera.document.capture         1         0           1       0           -      -      -      -       0",
            "document.upload                 1         1           0       1        100%  120ms  120ms  120ms       0",
            "nfc.read                        1         0           1       0           -      -      -      -       0",
            "host.ping                       0         0           0       0           -      -      -      -       1",
            "host.ready                      0         0           0       0           -      -      -      -       1",
        ])
        #expect(model.footer.contains("Esc back"))
    }

    @Test("at 80×24 every column stays on screen: short titles with their legend, and long action names cut to fit (issue 27)")
    func fitsEightyColumns() {
        var model = journeyModel(width: 80, height: 24)
        model.handle(.frame(.event(seq: 12, event: .traffic(Fixture.request(
            seq: 12, id: "long-1", action: "com.example.journey.verification.document.upload.v2", at: Fixture.t0)))))
        model.press(.char("S"))
        let lines = model.screen
        let header = lines.first { $0.contains("ACTION") } ?? ""
        for title in ["REQ", "ANS", "UNANS", "ERR", "ERR%", "P50", "P95", "MAX", "EVT"] {
            #expect(header.contains(title), "\(title) is on screen: \(header)")
        }
        #expect(lines.contains { $0.contains("REQ requests · ANS answered") }, "the short titles are explained")
        #expect(lines.contains { $0.contains("com.example.jour") && $0.contains("…") }, "the long action is cut, not the numbers")
        #expect(lines.allSatisfy { TextWidth.width(of: $0) <= 80 })
        // Wide enough, the full titles.
        var wide = journeyModel(width: 160, height: 40)
        wide.press(.char("S"))
        #expect(wide.screen.contains { $0.contains("REQUESTS") && $0.contains("EVENTS") })
        #expect(!wide.screen.contains { $0.contains("REQ requests") })
    }

    @Test("the view updates as traffic arrives: a new answer and a new action appear without reopening it")
    func liveUpdate() {
        var model = journeyModel(width: 140, height: 40)
        model.press(.char("S"))
        // cap-2 was sent 3 s before t0: answered 3,058 ms after it.
        model.feed(12, .traffic(Fixture.response(seq: 12, id: "cap-2", action: "capability.query", at: Self.t0 + 58)))
        model.feed(13, .traffic(Fixture.request(seq: 13, id: "loc-1", action: "location.get", at: Self.t0 + 100)))
        model.feed(14, .traffic(Fixture.response(seq: 14, id: "loc-1", action: "location.get", at: Self.t0 + 400, status: .error)))
        let screen = model.screen
        #expect(screen.line(containing: "capability.query")?.contains("2         2           0       0          0%   42ms   3.1s   3.1s") == true, "\(screen)")
        #expect(screen.line(containing: "location.get")?.contains("100%  300ms  300ms  300ms") == true, "\(screen)")
        #expect(screen.contains { $0.contains("6 requests for 5 actions: 4 answered, 2 unanswered") })
    }

    @Test("the open view counts only the rows that arrive: the log is counted when it opens, never again (issue 30)")
    func followsIncrementally() {
        var model = journeyModel(width: 140, height: 40)
        model.press(.char("S"))
        for index in 0..<40 {
            let seq = 12 + 2 * index
            model.feed(seq, .traffic(Fixture.request(seq: seq, id: "loc-\(index)", action: "location.get", at: Self.t0 + Double(seq))))
            model.feed(seq + 1, .traffic(Fixture.response(seq: seq + 1, id: "loc-\(index)", action: "location.get", at: Self.t0 + Double(seq) + Double(index % 7))))
        }
        model.handle(.disconnected)
        let view = model.overlays.last as? StatsView
        #expect(view?.statistics.countedRows == model.live.log.count, "every row counted as it came, the disconnection's marker too")
        #expect(view?.statistics.recounts == 0, "the log was not counted again from the start")
        let followed = model.screen
        #expect(followed.line(containing: "location.get")?.contains("40        40           0       0          0%    3ms    6ms    6ms") == true, "\(followed)")
        // The same as a view opened now, which counts the whole log.
        model.press(.escape)
        model.press(.char("S"))
        #expect(model.screen == followed)
    }

    @Test("an action name with control characters is drawn with visible escapes; nothing reaches the terminal raw")
    func hostileActionName() {
        var model = journeyModel(width: 140, height: 40)
        model.feed(12, .traffic(Fixture.request(seq: 12, id: "x-1", action: "evil\u{1B}]0;pwned\u{07}\u{202E}", at: Self.t0)))
        model.press(.char("S"))
        let buffer = model.render()
        #expect(forbiddenCells(buffer).isEmpty, "\(forbiddenCells(buffer))")
        #expect(model.screen.contains { $0.contains("evil\\x1B]0;pwned\\x07\\u{202E}") }, "\(model.screen)")
    }

    @Test("many actions scroll under the fixed summary and column titles; Esc, q and S close the view")
    func scrollsAndCloses() {
        var model = journeyModel(width: 120, height: 16)
        for index in 0..<30 {
            let seq = 12 + index
            model.feed(seq, .traffic(Fixture.request(seq: seq, id: "a-\(index)", action: String(format: "action.%02d", index), at: Self.t0)))
        }
        model.press(.char("S"))
        // 16 rows: status line, frame, summary, blank, titles, ... frame, footer.
        #expect(model.screen[1].contains("(j/k scroll, 1-"))
        #expect(model.screen.contains { $0.contains("capability.query") })
        model.press(.char("G"))
        #expect(model.screen.contains { $0.contains("host.ready") })
        #expect(!model.screen.contains { $0.contains("capability.query") })
        #expect(model.screen.contains { $0.contains("ACTION") && $0.contains("P95") })
        #expect(model.screen.contains { $0.contains("35 requests for 34 actions") })
        model.press(.char("g"))
        #expect(model.screen.contains { $0.contains("capability.query") })
        for close: Key in [.escape, .char("q"), .char("S")] {
            var closing = model
            closing.press(close)
            #expect(closing.overlays.isEmpty)
            #expect(!closing.quitting)
        }
    }

    @Test("an empty host says so; the help lists S; the footer offers it once the journey has sent something and there is room")
    func emptyHelpAndFooter() {
        var model = makeModel(width: 120, height: 30)
        model.handle(.frame(Fixture.emptySnapshot()))
        #expect(!model.footer.contains("S stats"))
        model.press(.char("S"))
        #expect(model.screen.contains { $0.contains("0 requests for 0 actions") })
        #expect(model.screen.contains { $0.contains("no requests or events yet") })
        #expect(HelpView.sections.contains { $0.keys.contains { $0.0 == "S" && $0.1.hasPrefix("statistics per action") } })
        let wide = journeyModel(width: 200, height: 40)
        #expect(wide.footer.contains("S stats"))
    }
}
