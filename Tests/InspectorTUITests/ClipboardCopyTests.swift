import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Issue 15, "Copy": `y` copies the selected message's JSON and `Y` a line that reproduces it
/// in Safari Web Inspector's console (GBGBridge Troubleshooting, "Safari Web Inspector": "use
/// the console to inspect window.GBGBridge and test message sending"), through OSC 52. The model
/// only returns what to copy; the runner writes the sequence.
@Suite("Copying a message (y, Y)")
struct ClipboardCopyTests {
    /// A message from the journey whose text would break a script (`</script>`, U+2028) and whose
    /// numbers and key order a re-encoding would change.
    static let hostileReceived =
        #"{"version":"1.0","correlationId":"in-1","type":"request","timestamp":1700000000000,"payload":{"action":"note.save","data":{"z":9007199254740993,"text":"</script><script>alert(1)</script>\#u{2028}end"}}}"#
    static let sentEvent =
        #"{"version":"1.0","correlationId":"ev-1","type":"event","timestamp":1700000000001,"payload":{"action":"host.ready","data":{"b":1,"a":"<!--"}}}"#

    static func record(seq: Int, direction: String, message: String) -> String {
        #"{"seq":\#(seq),"direction":"\#(direction)","time":\#(Fixture.t0),"origin":"\#(direction == "received" ? "journey" : "host")","bytes":\#(message.utf8.count),"message":\#(message)}"#
    }

    /// A model whose log holds the two messages above, read from frame text as a live agent sends it.
    static func model(readOnly: Bool = false) throws -> InspectorModel {
        var model = makeModel()
        model.readOnly = readOnly
        let snapshot =
            #"{"kind":"snapshot","seq":2,"state":{"host":{"environment":"ios","hostVersion":"1","name":"h","pid":1,"startedAt":1},"journeyAttached":true,"lastError":null,"errorHistory":[],"messages":[\#(record(seq: 1, direction: "received", message: hostileReceived)),\#(record(seq: 2, direction: "sent", message: sentEvent))],"malformed":[],"pending":[],"slots":[],"customCapabilities":[],"counts":{"evicted":0,"malformed":0,"received":1,"sent":1}}}"#
        model.handle(.frame(try AgentFrame.decode(Data(snapshot.utf8))))
        return model
    }

    /// Selects the log row with sequence number `seq`.
    static func select(_ seq: Int, in model: inout InspectorModel) throws {
        model.press(.char("g"))
        while model.selectedEntry?.seq != seq {
            let before = model.cursor
            model.press(.char("j"))
            try #require(model.cursor != before, "no row with seq \(seq)")
        }
    }

    static func copied(_ effects: [InspectorEffect]) -> String? {
        guard effects.count == 1, case .copyToClipboard(let bytes) = effects[0] else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("y copies the message's JSON exactly as it crossed the bridge (digits, key order, compact) and says so")
    func yCopiesExactJSON() throws {
        var model = try Self.model()
        try Self.select(1, in: &model)
        let text = try #require(Self.copied(model.press(.char("y"))))
        #expect(text == Self.hostileReceived)
        let flash = try #require(model.flash)
        #expect(!flash.isError)
        #expect(flash.text == "copied \(TimeFormat.bytes(Self.hostileReceived.utf8.count)) as JSON to the clipboard (OSC 52)")
    }

    @Test("Y on a message from the journey copies a postMessage line with the message as an object, script-safe")
    func consoleLineForJourneyMessage() throws {
        var model = try Self.model()
        try Self.select(1, in: &model)
        let text = try #require(Self.copied(model.press(.char("Y"))))
        #expect(text.hasPrefix("window.webkit.messageHandlers.gbgBridge.postMessage({\"version\":\"1.0\""))
        #expect(text.hasSuffix("});"))
        #expect(!text.contains("<"))
        #expect(!text.contains("\u{2028}"))
        #expect(text.contains(#"\u003c/script>"#))
        #expect(text.contains(#"\u2028end"#))
        #expect(text.contains("9007199254740993"))
        // The expression between the parentheses is the same JSON (every escape is a JSON escape).
        let prefix = SafariConsoleLine.postMessageFunction + "("
        let expression = text.dropFirst(prefix.count).dropLast(2)
        let reparsed = try JSONSerialization.jsonObject(with: Data(expression.utf8)) as? NSDictionary
        let original = try JSONSerialization.jsonObject(with: Data(Self.hostileReceived.utf8)) as? NSDictionary
        #expect(reparsed == original)
        #expect(model.flash?.text.hasPrefix("copied ") == true)
        #expect(model.flash?.text.contains("as a Safari console line") == true)
    }

    @Test("Y on a message the host sent copies window.GBGBridge.receive(...), the host's own delivery script")
    func consoleLineForHostMessage() throws {
        var model = try Self.model()
        try Self.select(2, in: &model)
        let text = try #require(Self.copied(model.press(.char("Y"))))
        #expect(text == #"window.GBGBridge.receive({"version":"1.0","correlationId":"ev-1","type":"event","timestamp":1700000000001,"payload":{"action":"host.ready","data":{"b":1,"a":"\u003c!--"}}});"#)
        #expect(text == JavaScriptDelivery.script(forMessageJSON: Data(Self.sentEvent.utf8)))
    }

    @Test("Malformed input: y copies its raw text, Y says there is no console line and copies nothing")
    func malformedInput() throws {
        var model = journeyModel()
        try Self.select(10, in: &model)
        #expect(model.selectedEntry?.kind == .malformed)
        #expect(Self.copied(model.press(.char("y"))) == "{\"version\":\"1.0\"}")
        #expect(model.flash?.text.contains("as the raw input") == true)
        #expect(model.press(.char("Y")).isEmpty)
        let flash = try #require(model.flash)
        #expect(flash.isError)
        #expect(flash.text.contains("no console line for malformed input"))
    }

    @Test("Malformed input holding control characters is copied with them as visible escapes, so a paste cannot act on a terminal")
    func malformedControlCharactersEscaped() throws {
        var model = makeModel()
        let raw = "{oops\n\u{1B}[201~rm -rf ~\r\u{9B}end"
        let malformed = WireMalformed(seq: 1, time: Fixture.t0, raw: raw, bytes: raw.utf8.count, reason: "not JSON")
        model.handle(.frame(.snapshot(seq: 1, state: Fixture.state(malformed: [malformed]))))
        let text = try #require(Self.copied(model.press(.char("y"))))
        #expect(text == #"{oops"# + "\n" + #"\x1B[201~rm -rf ~\r\u{9B}end"#)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(model.flash?.text.contains("control characters as escapes") == true)
    }

    @Test("A message larger than terminals take through OSC 52 is refused with what to do instead")
    func largeMessageRefused() throws {
        var model = makeModel()
        let big = String(repeating: "x", count: ClipboardSequence.maxPayloadBytes)
        let request = Fixture.request(seq: 1, id: "big-1", action: "document.upload", at: Fixture.t0, data: ["image": .string(big)])
        model.handle(.frame(.snapshot(seq: 1, state: Fixture.state(messages: [request]))))
        for key in ["y", "Y"] {
            #expect(model.press(.char(Character(key))).isEmpty)
            let flash = try #require(model.flash)
            #expect(flash.isError)
            #expect(flash.text.hasPrefix("not copied: "))
            #expect(flash.text.contains("OSC 52"))
            #expect(flash.text.contains("tail --json --filter id:big-1"))
            #expect(flash.text.contains("export --har"))
        }
    }

    @Test("The detail view copies the message it shows and stays open")
    func detailViewCopies() throws {
        var model = try Self.model()
        try Self.select(2, in: &model)
        model.press(.enter)
        #expect(model.screenText.contains("y/Y copy"))
        #expect(Self.copied(model.press(.char("y"))) == Self.sentEvent)
        #expect(Self.copied(model.press(.char("Y"))) == JavaScriptDelivery.script(forMessageJSON: Data(Self.sentEvent.utf8)))
        guard case .detail? = model.topOverlay else {
            Issue.record("the detail view closed")
            return
        }
    }

    @Test("Copying works in a recording (read-only): it sends nothing to a host")
    func copyInRecording() throws {
        var model = try Self.model(readOnly: true)
        try Self.select(1, in: &model)
        #expect(Self.copied(model.press(.char("y"))) == Self.hostileReceived)
    }

    @Test("Nothing to copy outside the Messages pane or on an empty log")
    func nothingToCopy() throws {
        var empty = makeModel()
        empty.handle(.frame(Fixture.emptySnapshot()))
        #expect(empty.press(.char("y")).isEmpty)
        #expect(empty.flash?.isError == true)
        var model = try Self.model()
        model.press(.tab)
        #expect(model.press(.char("Y")).isEmpty)
        #expect(model.flash?.text.contains("select a message in the Messages pane") == true)
    }

    @Test("The footer and the help screen show the copy keys")
    func keysAreShown() throws {
        var model = try Self.model()
        #expect(model.screenText.contains("y/Y copy"))
        model.press(.char("?"))
        let help = model.screenText
        #expect(help.contains("copy the message's JSON"))
        #expect(help.contains("Safari Web Inspector's console"))
    }
}
