import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

@Suite("Hostile values")
struct HostileValuesTests {
    // MARK: LiveState and the screen

    /// The journey, with every time in it replaced by a hostile one.
    static func hostileState() -> WireState {
        var state = Fixture.journeyState()
        state.host.startedAt = -1e300
        for index in state.messages.indices {
            state.messages[index].time = index.isMultiple(of: 2) ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude
        }
        for index in state.malformed.indices { state.malformed[index].time = 1e300 }
        for index in state.pending.indices { state.pending[index].since = index.isMultiple(of: 2) ? -1e300 : 1e300 }
        for index in state.slots.indices where state.slots[index].activeSince != nil { state.slots[index].activeSince = -.greatestFiniteMagnitude }
        for index in state.errorHistory.indices { state.errorHistory[index].time = -1e300 }
        state.lastError?.time = 1e300
        return state
    }

    @Test("Huge times and an inverted gap go through LiveState and every view renders", arguments: OpenView.allCases)
    func hostileFramesRender(view: OpenView) {
        for size in [Size(width: 120, height: 40), Size(width: 80, height: 24), Size(width: 160, height: 50)] {
            var model = makeModel(width: size.width, height: size.height, now: 1e300)
            model.handle(.frame(.snapshot(seq: 11, state: Self.hostileState())))
            // A response 2e308 ms after its request (the latency is infinite), and one before it.
            model.feed(12, .traffic(Fixture.request(seq: 12, id: "far-1", action: "nfc.read", at: -.greatestFiniteMagnitude)))
            model.feed(13, .traffic(Fixture.response(seq: 13, id: "far-1", action: "nfc.read", at: .greatestFiniteMagnitude)))
            model.feed(14, .traffic(Fixture.request(seq: 14, id: "far-2", action: "nfc.read", at: 1e300)))
            model.feed(15, .traffic(Fixture.response(seq: 15, id: "far-2", action: "nfc.read", at: -1e300)))
            // Made in code, not decoded: LiveState must not trap on it either.
            model.handle(.frame(.gap(from: 40, to: 17)))
            model.handle(.frame(.event(seq: 41, event: .lastError(WireError(seq: 41, time: .greatestFiniteMagnitude, text: "far", cause: 14)))))
            view.open(&model)
            let screen = model.render()
            #expect(screen.width == size.width && screen.height == size.height)
            #expect(forbiddenCells(screen).isEmpty)
            model.handle(.tick(-1e300))
            model.handle(.disconnected)
            _ = model.render()
            model.handle(.tick(.greatestFiniteMagnitude))
            _ = model.render()
            #expect(model.live.gaps == [17...40], "an inverted gap is normalised")
            #expect(model.live.log.contains { $0.kind == .gap(from: 17, to: 40) })
        }
        var model = makeModel(now: 1e300)
        model.handle(.frame(.snapshot(seq: 11, state: Self.hostileState())))
        #expect(model.messageLines[0].hasPrefix("--:--:--.--- OUT evt  host.ready "), "\(model.messageLines)")
        #expect(model.pendingLines[0].hasSuffix("✗?"), "\(model.pendingLines)")
        #expect(model.slotLines[0].contains("BUSY ? held by doc-7"), "\(model.slotLines)")
        #expect(model.screen[1].contains("⚠ lastError (2) --:--:--.--- "))
    }

    @Test("An inverted gap frame is refused when decoded; a proper one is read")
    func invertedGapRefused() throws {
        #expect(throws: DecodingError.self) { try AgentFrame.decode(Data(#"{"kind":"gap","from":9,"to":3}"#.utf8)) }
        guard case .gap(let from, let to) = try AgentFrame.decode(Data(#"{"kind":"gap","from":3,"to":3}"#.utf8)) else {
            Issue.record("not a gap")
            return
        }
        #expect(from == 3 && to == 3)
    }

    @Test("A recording with huge times and an inverted gap loads up to the gap and opens in the viewer")
    func hostileRecording() throws {
        let host = #"{"environment":"ios","hostVersion":"1.0","name":"rec","pid":7,"startedAt":-1e300}"#
        let request = #"{"version":"1.0","correlationId":"r1","type":"request","timestamp":1e300,"payload":{"action":"nfc.read"}}"#
        let response = #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"payload":{"action":"nfc.read","status":"success"}}"#
        let lines = [
            #"{"kind":"recording","version":1,"socket":"/tmp/x.sock","startedAt":1e300,"client":"test"}"#,
            #"{"kind":"hello","protocol":1,"agent":"a","host":\#(host),"features":[],"limits":{"maxFrameBytes":10,"maxClients":1}}"#,
            #"{"kind":"snapshot","seq":1,"state":{"host":\#(host),"journeyAttached":true,"lastError":{"seq":1,"time":-1.7976931348623157e308,"text":"x","cause":null},"errorHistory":[],"messages":[{"seq":1,"direction":"received","time":-1.7976931348623157e308,"origin":"journey","bytes":10,"message":\#(request)}],"malformed":[],"pending":[{"correlationId":"r1","action":"nfc.read","since":-1e300,"message":\#(request)}],"slots":[],"customCapabilities":[],"counts":{"evicted":0,"malformed":0,"received":1,"sent":0}}}"#,
            #"{"kind":"event","seq":2,"event":{"type":"traffic","record":{"seq":2,"direction":"sent","time":1.7976931348623157e308,"origin":"host","bytes":10,"message":\#(response)}}}"#,
            #"{"kind":"gap","from":9,"to":3}"#,
            #"{"kind":"gap","from":3,"to":9}"#,
        ]
        let contents = Recording.load(data: Data(lines.joined(separator: "\n").utf8))
        #expect(contents.header?.startedAt == 1e300)
        #expect(contents.frames.count == 3)
        #expect(contents.problem?.line == 5, "\(String(describing: contents.problem))")
        #expect(contents.problem?.reason.contains("must not be before") == true, "\(String(describing: contents.problem))")
        #expect(TimeFormat(utcOffsetSeconds: 0).clock(contents.header?.startedAt ?? 0) == "--:--:--.---")

        // As `bridge-inspector open` shows it: read-only, as of the recording's last record.
        var model = InspectorModel(recording: contents.frames, size: Size(width: 120, height: 40), path: "x.jsonl")
        model.timeFormat = TimeFormat(utcOffsetSeconds: 0)
        #expect(model.live.log.last?.latencyMs == .infinity)
        let rows = model.messageLines
        #expect(rows[0].hasPrefix("--:--:--.--- IN  req  nfc.read"), "\(rows)")
        #expect(rows[1].hasPrefix("--:--:--.--- OUT resp nfc.read") && rows[1].contains(" ? "), "\(rows)")
        #expect(model.pendingLines[0].hasSuffix("✗?"), "\(model.pendingLines)")
        for key: Character in ["g", "E"] {
            var viewing = model
            viewing.press(.char(key), .enter)
            #expect(forbiddenCells(viewing.render()).isEmpty)
        }
    }

    // MARK: The slot dialog's image file

    /// A file in a fresh temporary directory, holding `bytes`.
    static func imageFile(_ name: String, bytes: Data) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-inspector-tui-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        #expect(FileManager.default.createFile(atPath: path, contents: bytes))
        return path
    }

    /// The journey with the slot dialog open on the document slot, its image file field focused.
    static func dialogOnImageField(width: Int = 120, height: Int = 40) -> InspectorModel {
        var model = journeyModel(width: width, height: height)
        model.press(.tab, .tab, .char("c"), .tab, .tab, .tab)
        return model
    }

    @Test("The image file is read once, when its field is committed: drawing never reads it, Enter sends what was read")
    func imageFileReadOnCommit() throws {
        let bytes = TestImages.jpeg3x2
        let path = try Self.imageFile("passport.jpg", bytes: bytes)
        var model = Self.dialogOnImageField()
        model.type(path)
        #expect(model.screen.contains { $0.contains("✗ the image file is read when you press Tab or Enter") })
        #expect(try #require(slotDialog(model)).readImage == nil)
        model.press(.tab)
        #expect(try #require(slotDialog(model)).readImage?.path == path)
        // The file goes away: what was read stays, and drawing does not notice.
        try FileManager.default.removeItem(atPath: path)
        for _ in 0..<3 {
            #expect(model.screen.contains { $0.contains("✓ ready: Enter sends passport.jpg (3×2 image/jpeg, 287 B)") })
        }
        #expect(previewLines(model).contains(#"      "imageBase64": "<base64 of passport.jpg, 287 B>","#), "\(previewLines(model))")
        #expect(previewLines(model).contains(#"      "mimeType": "image/jpeg""#))
        let effects = model.press(.enter)
        #expect(
            effects == [
                .send(
                    .completeSlot(.init(slot: .document, result: .success(imageBase64: bytes.base64EncodedString(), width: 3, height: 2, mimeType: "image/jpeg"))),
                    label: "complete the document capture doc-7 with success")
            ])
    }

    @Test("A missing image file is named in the dialog when the field is committed, and nothing is sent")
    func imageFileMissing() throws {
        var model = Self.dialogOnImageField()
        model.type("/nonexistent/passport.jpg")
        model.press(.backTab)
        #expect(model.screen.contains { $0.contains("✗ image file passport.jpg: no such file") })
        #expect(model.press(.enter).isEmpty)
        #expect(model.footer.contains("image file passport.jpg: no such file"))
        #expect(slotDialog(model) != nil)
        #expect(previewLines(model) == ["(fix the fields above to see the message)"])
        #expect(SlotImageFile.read(path: "/nonexistent/passport.jpg") == .failure(.missing(path: "/nonexistent/passport.jpg")))
        #expect(SlotImageFile.Problem.missing(path: "/nonexistent/passport.jpg").description == "/nonexistent/passport.jpg: no such file")
    }

    @Test("An image file over the limit the slot command uses is refused in the dialog without being sent")
    func imageFileTooLarge() throws {
        let path = try Self.imageFile("huge.png", bytes: TestImages.png(width: 5, height: 4))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(SlotImageFile.maxBytes + 1))
        try handle.close()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(SlotImageFile.maxBytes == 11 * 1024 * 1024)
        var model = Self.dialogOnImageField(width: 160, height: 50)
        model.type(path)
        #expect(model.press(.enter).isEmpty, "Enter commits the field too")
        let message = "image file huge.png is \(SlotImageFile.maxBytes + 1) bytes; at most \(SlotImageFile.maxBytes) can be sent"
        #expect(model.screen.contains { $0.contains("✗ " + message) }, "\(model.screen)")
        #expect(slotDialog(model) != nil)
        #expect(SlotImageFile.read(path: path) == .failure(.tooLarge(path: path, bytes: SlotImageFile.maxBytes + 1)))
        // A file of exactly the limit is accepted.
        let handle2 = try #require(FileHandle(forWritingAtPath: path))
        try handle2.truncate(atOffset: UInt64(SlotImageFile.maxBytes))
        try handle2.close()
        guard case .success(let file) = SlotImageFile.read(path: path) else {
            Issue.record("a file of exactly the limit was refused")
            return
        }
        #expect(file.bytes.count == SlotImageFile.maxBytes && file.mimeType == "image/png")
        #expect(SlotImageFile.read(path: NSTemporaryDirectory()) == .failure(.unreadable(path: NSTemporaryDirectory())))
    }

    @Test("The preview describes the synthetic image the host will make at the size chosen, not bytes of another image", arguments: [
        CaptureCapability.Kind.document, .selfie,
    ])
    func previewHonest(kind: CaptureCapability.Kind) throws {
        var model = journeyModel()
        model.feed(12, .slot(Fixture.slot(kind, active: "cap-\(kind.rawValue)", since: Fixture.t0 - 1_000)))
        model.press(.tab, .tab)
        if kind == .selfie { model.press(.char("j")) }
        model.press(.char("c"), .tab, .ctrl("u"))
        model.type("4000")
        model.press(.tab, .ctrl("u"))
        model.type("3000")
        let preview = previewLines(model)
        #expect(preview.contains(#"      "imageBase64": "<synthetic 4000×3000 PNG, made by the host>","#), "\(preview)")
        #expect(!preview.contains { $0.contains("iVBORw0KGgo") })
        #expect(preview.contains(#"      "imageWidth": 4000,"#))
        #expect(preview.contains(#"      "imageHeight": 3000,"#))
        #expect(preview.contains(#"      "mimeType": "image/png""#))
        #expect(preview.contains(#"  "correlationId": "cap-\#(kind.rawValue)","#))
    }
}
