import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import TestSupport
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

    @Test("Y on a message from the journey copies a postMessage line that passes the message through JSON.parse, script-safe")
    func consoleLineForJourneyMessage() throws {
        var model = try Self.model()
        try Self.select(1, in: &model)
        let text = try #require(Self.copied(model.press(.char("Y"))))
        #expect(text.hasPrefix(#"window.webkit.messageHandlers.gbgBridge.postMessage(JSON.parse("{\"version\":\"1.0\""#))
        #expect(text.hasSuffix("\"));"))
        #expect(!text.contains("<"))
        #expect(!text.contains("\u{2028}"))
        #expect(text.contains(#"\u003c/script\u003e"#))
        #expect(text.contains(#"\u2028end"#))
        #expect(text.contains("9007199254740993"))
        // The string literal between the parentheses holds the very JSON (a JSON string is a JS string).
        let prefix = SafariConsoleLine.postMessageFunction + "(JSON.parse("
        let literal = text.dropFirst(prefix.count).dropLast(3)
        let held = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed) as? String
        #expect(held == Self.hostileReceived)
        #expect(model.flash?.text.hasPrefix("copied ") == true)
        #expect(model.flash?.text.contains("as a Safari console line") == true)
    }

    @Test("Y on a message the host sent copies window.GBGBridge.receive(JSON.parse(...)) with the message's JSON as it was sent")
    func consoleLineForHostMessage() throws {
        var model = try Self.model()
        try Self.select(2, in: &model)
        let text = try #require(Self.copied(model.press(.char("Y"))))
        #expect(text == #"window.GBGBridge.receive(JSON.parse("{\"version\":\"1.0\",\"correlationId\":\"ev-1\",\"type\":\"event\",\"timestamp\":1700000000001,\"payload\":{\"action\":\"host.ready\",\"data\":{\"b\":1,\"a\":\"\u003c!--\"}}}"));"#)
    }

    @Test(
        "A __proto__ key survives Y: in node the console line hands the page an object with __proto__ as its own key, and every other byte as sent",
        .enabled(if: Self.node != nil, "node is not installed (apt-get install nodejs; .ci/run does it): the console line cannot be run here"))
    func consoleLineKeepsProtoKey() throws {
        let message = #"{"version":"1.0","correlationId":"p-1","type":"request","timestamp":1,"payload":{"action":"x","data":{"__proto__":{"admin":true},"s":"</script>\\\"'\n"}}}"#
        for direction in ["received", "sent"] {
            var model = makeModel()
            let snapshot =
                #"{"kind":"snapshot","seq":1,"state":{"host":{"environment":"ios","hostVersion":"1","name":"h","pid":1,"startedAt":1},"journeyAttached":true,"lastError":null,"errorHistory":[],"messages":[\#(Self.record(seq: 1, direction: direction, message: message))],"malformed":[],"pending":[],"slots":[],"customCapabilities":[],"counts":{"evicted":0,"malformed":0,"received":1,"sent":1}}}"#
            model.handle(.frame(try AgentFrame.decode(Data(snapshot.utf8))))
            try Self.select(1, in: &model)
            let line = try #require(Self.copied(model.press(.char("Y"))))
            let node = try #require(Self.node)
            // A stand-in window records what the line hands over; node prints whether the key is
            // the object's own and the object as JSON.
            let harness = """
                let got; const window = {webkit: {messageHandlers: {gbgBridge: {postMessage(m) { got = m; }}}}, GBGBridge: {receive(m) { got = m; }}};
                eval(process.argv[1]);
                const data = got.payload.data;
                console.log(JSON.stringify({own: Object.prototype.hasOwnProperty.call(data, "__proto__"), inherited: data.admin === true, json: JSON.stringify(got)}));
                """
            let result = try SpawnedProcess.run([node, "-e", harness, line], timeout: 30)
            #expect(result.status == 0, "\(direction): \(result.errors)")
            let parsed = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
            let answer = try #require(parsed as? [String: Any], "\(result.output)")
            #expect(answer["own"] as? Bool == true, "\(direction): \(answer)")
            #expect(answer["inherited"] as? Bool == false, "\(direction): \(answer)")
            #expect(answer["json"] as? String == message, "\(direction): \(answer)")
        }
    }

    /// node on `PATH`, if any.
    static let node: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/node" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

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
            #expect(flash.text.contains("tail --json --filter id:big-1`"))
            #expect(flash.text.contains("export --har"))
        }
    }

    @Test("The hint for a message too large to copy quotes its id for any shell, escaped for the filter, and the screen shows no control character")
    func largeMessageHintQuotesId() throws {
        let big = String(repeating: "x", count: ClipboardSequence.maxPayloadBytes)
        for id in ["$(touch pwned)", "a;b|c", "it's", #"back\slash"#] {
            var model = makeModel()
            let request = Fixture.request(seq: 1, id: id, action: "document.upload", at: Fixture.t0, data: ["image": .string(big)])
            model.handle(.frame(.snapshot(seq: 1, state: Fixture.state(messages: [request]))))
            #expect(model.press(.char("y")).isEmpty)
            let flash = try #require(model.flash)
            let start = try #require(flash.text.range(of: "`bridge-inspector tail --json --filter "), "\(flash.text)")
            let end = try #require(flash.text.range(of: "`, or from a recording"), "\(flash.text)")
            let word = String(flash.text[start.upperBound..<end.lowerBound])
            // The shell reads the word as the filter term, and the term finds this very message.
            let directory = try TemporaryDirectory()
            let shell = try SpawnedProcess.run(["/bin/bash", "-c", "cd \"$1\" && printf %s " + word, "bash", directory.path], timeout: 10)
            #expect(shell.output == LogFilter.term("id:", matching: id), "\(id): \(word) reads as \(shell.output)")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []) == [])
            #expect(try LogFilter.parse(shell.output).matches(LogEntry(request), pending: []), "\(id)")
        }
        var model = makeModel()
        let request = Fixture.request(seq: 1, id: "esc\u{1B}]52;c;x\u{07}", action: "document.upload", at: Fixture.t0, data: ["image": .string(big)])
        model.handle(.frame(.snapshot(seq: 1, state: Fixture.state(messages: [request]))))
        #expect(model.press(.char("y")).isEmpty)
        #expect(model.flash?.text.contains("--filter 'id:esc") == true)
        #expect(!model.screenText.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test("The detail view copies the message it shows and stays open")
    func detailViewCopies() throws {
        var model = try Self.model()
        try Self.select(2, in: &model)
        model.press(.enter)
        #expect(model.screenText.contains("y/Y copy"))
        #expect(Self.copied(model.press(.char("y"))) == Self.sentEvent)
        #expect(Self.copied(model.press(.char("Y"))) == SafariConsoleLine.line(for: try #require(model.selectedEntry)))
        guard model.topOverlay is DetailView else {
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
