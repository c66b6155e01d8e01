import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// A JPEG that is only a header: SOI, then an SOF0 frame for `width`×`height`, then EOI.
private func jpegBytes(width: Int, height: Int) -> Data {
    Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 0x03]
        + [UInt8](repeating: 0x11, count: 9) + [UInt8](repeating: 0x42, count: 400) + [0xFF, 0xD9])
}

private func fingerprint(_ data: Data) -> String { String(SHA256.hex(data).prefix(16)) }

private func message(_ id: String, data: [String: JSONValue], type: String = "response") -> JSONValue {
    .object(["correlationId": .string(id), "type": .string(type), "version": "1.0", "timestamp": 1, "payload": .object(["action": "camera.document.capture", "data": .object(data)])])
}

private func payloadData(_ value: JSONValue) -> [String: JSONValue]? {
    guard case .object(let message) = value, case .object(let payload)? = message["payload"], case .object(let data)? = payload["data"] else { return nil }
    return data
}

private func text(_ value: JSONValue) -> String {
    var writer = JSONWriter()
    writer.value(value)
    return String(decoding: writer.bytes, as: UTF8.self)
}

/// Issue 28, part 4, "Share safely": images and large base64 replaced by size, type and hash,
/// named fields by consistent tokens, correlation ids kept; every line of a recording redacted
/// or left out, never passed through unread.
@Suite("Redaction")
struct RedactionTests {
    @Test("SHA-256 gives the standard digests")
    func sha256() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Data(String(repeating: "a", count: 1000).utf8)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test("a PNG data URL, a JPEG data URL and bare base64 become descriptors with type, pixel size, byte count and hash")
    func imagesBecomeDescriptors() {
        let png = SyntheticImage.png(width: 64, height: 48)
        let jpeg = jpegBytes(width: 1280, height: 800)
        var redactor = Redactor()
        let value = redactor.redact(message("cap-1", data: [
            "pngURL": .string("data:image/png;base64," + png.base64EncodedString()),
            "jpegURL": .string("data:image/jpeg;base64," + jpeg.base64EncodedString()),
            "imageBase64": .string(jpeg.base64EncodedString()),
        ]))
        let data = payloadData(value)
        #expect(data?["pngURL"] == .string("[redacted image/png 64x48 \(png.count) bytes sha256:\(fingerprint(png))]"))
        #expect(data?["jpegURL"] == .string("[redacted image/jpeg 1280x800 \(jpeg.count) bytes sha256:\(fingerprint(jpeg))]"))
        #expect(data?["imageBase64"] == .string("[redacted image/jpeg 1280x800 \(jpeg.count) bytes sha256:\(fingerprint(jpeg))]"))
        #expect(redactor.report.images == 3)
        #expect(!text(value).contains(String(jpeg.base64EncodedString().prefix(40))))
    }

    @Test("equal images give equal descriptors, different images different ones, across messages and redactors")
    func equalImagesCompareEqual() {
        let first = SyntheticImage.png(width: 30, height: 20).base64EncodedString()
        let other = SyntheticImage.png(width: 31, height: 20).base64EncodedString()
        var one = Redactor()
        var two = Redactor()
        let a = one.redact(text: first)
        let b = two.redact(text: first)
        let c = one.redact(text: other)
        #expect(a == b)
        #expect(a != c)
        #expect(a.hasPrefix("[redacted image/png 30x20 "))
    }

    @Test("other large base64 is described by its size; a data URL that is not an image keeps its declared type; short strings and ordinary text stay")
    func otherBase64AndOrdinaryText() {
        let blob = Data((0..<300).map { UInt8($0 % 251) })
        var redactor = Redactor()
        #expect(redactor.redact(text: blob.base64EncodedString()) == "[redacted base64 300 bytes sha256:\(fingerprint(blob))]")
        #expect(redactor.redact(text: "data:application/pdf;base64," + blob.base64EncodedString()) == "[redacted application/pdf 300 bytes sha256:\(fingerprint(blob))]")
        let short = Data(repeating: 7, count: 60).base64EncodedString()
        let prose = String(repeating: "The journey asked for the front of the document. ", count: 20)
        #expect(redactor.redact(text: short) == short)
        #expect(redactor.redact(text: prose) == prose)
        #expect(redactor.redact(text: "abc") == "abc")
        #expect(redactor.report.otherBase64 == 2)
        #expect(redactor.report.images == 0)
        // A lower threshold takes the short one too.
        var eager = Redactor(options: .init(minBase64Length: 40))
        #expect(eager.redact(text: short).hasPrefix("[redacted base64 60 bytes"))
    }

    @Test("named fields, nested, with * and inside arrays, become tokens that are equal for equal values; correlation ids are kept")
    func namedFields() throws {
        let options = Redactor.Options(fields: [
            try RedactionFieldPath(parsing: "data.documentNumber"),
            try RedactionFieldPath(parsing: "data.holder.*"),
            try RedactionFieldPath(parsing: "payload.data.people.name"),
        ])
        var redactor = Redactor(options: options)
        let first = redactor.redact(message("req-1", data: [
            "documentNumber": "X1234567",
            "holder": .object(["name": "Ann Smith", "born": "1990-01-02"]),
            "people": .array([.object(["name": "Ann Smith", "age": 3]), .object(["name": "Bob", "age": 4])]),
            "side": "front",
        ]))
        let second = redactor.redact(message("req-2", data: ["documentNumber": "X1234567"], type: "request"))
        let third = redactor.redact(message("req-3", data: ["documentNumber": "Y7654321"], type: "request"))
        let data = try #require(payloadData(first))
        #expect(data["documentNumber"] == "[redacted 1]")
        // `*` takes the keys in sorted order: born, then name.
        #expect(data["holder"] == .object(["name": "[redacted 3]", "born": "[redacted 2]"]))
        #expect(data["people"] == .array([.object(["name": "[redacted 3]", "age": 3]), .object(["name": "[redacted 4]", "age": 4])]))
        #expect(data["side"] == "front")
        #expect(payloadData(second)?["documentNumber"] == "[redacted 1]", "the same value, the same token")
        #expect(payloadData(third)?["documentNumber"] == "[redacted 5]")
        #expect(redactor.report.namedFields == 7)
        for (value, id) in [(first, "req-1"), (second, "req-2"), (third, "req-3")] {
            guard case .object(let members) = value else { Issue.record("not an object"); continue }
            #expect(members["correlationId"] == .string(id))
        }
        // Tokens are numbers, not hashes: nothing of the value is left to guess from.
        #expect(!text(first).contains("X1234567") && !text(first).contains("Ann Smith"))
        // An object that is not a bridge message keeps its fields.
        #expect(redactor.redact(.object(["data": .object(["documentNumber": "Z1"])])) == .object(["data": .object(["documentNumber": "Z1"])]))
    }

    @Test("malformed raw text: base64 inside it is redacted, JSON in it has its named fields replaced, and text that is not JSON has them found by key")
    func malformedRawText() throws {
        let png = SyntheticImage.png(width: 40, height: 30)
        var redactor = Redactor(options: .init(fields: [try RedactionFieldPath(parsing: "data.documentNumber")]))
        let broken = #"{"payload":{"data":{"documentNumber":"X1234567","image":"data:image/png;base64,"# + png.base64EncodedString() + #""}}"#  // no closing brace
        let redacted = redactor.redact(text: broken)
        #expect(!redacted.contains(String(png.base64EncodedString().prefix(40))))
        #expect(redacted.contains("[redacted image/png 40x30 \(png.count) bytes sha256:\(fingerprint(png))]"))
        #expect(!redacted.contains("X1234567"))
        #expect(redacted.contains(#""documentNumber":"[redacted 1]""#))

        let parsable = #"{"type":"request","payload":{"data":{"documentNumber":"X1234567"}}}"#
        let fromJSON = redactor.redact(text: parsable)
        #expect(fromJSON.contains(#""documentNumber":"[redacted 1]""#), "\(fromJSON)")

        // In a frame: the malformed event's raw text.
        let frame = JSONValue.object(["kind": "event", "seq": 3, "event": .object(["type": "malformed", "record": .object(["raw": .string(broken), "seq": 3])])])
        #expect(!text(redactor.redact(frame)).contains(String(png.base64EncodedString().prefix(40))))
    }

    @Test("a recording: images gone, the header marked, lines with nothing to redact kept byte for byte, and it loads with the same frames and no problem")
    func recordingLoads() throws {
        let png = SyntheticImage.png(width: 64, height: 48)
        let lines = Self.recording(image: png)
        var redactor = Redactor(options: .init(fields: [try RedactionFieldPath(parsing: "data.documentNumber")]))
        let output = redactor.redactRecording(Data((lines.joined(separator: "\n") + "\n").utf8))
        let text = String(decoding: output, as: UTF8.self)
        let outLines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(!text.contains(String(png.base64EncodedString().prefix(40))))
        #expect(!text.contains("X1234567"))
        #expect(text.contains(#""correlationId":"cap-1""#))
        #expect(outLines.count == lines.count)
        #expect(outLines[0].hasPrefix(#"{"kind":"recording","version":1,"socket":"/tmp/x.sock","startedAt":2000,"client":"bridge-inspector record","redacted":true"#), "\(outLines[0])")
        #expect(outLines[1] == lines[1], "the hello has nothing to redact and is kept as it was")
        #expect(outLines.last == lines.last, "the mark line is kept")
        #expect(redactor.report.images == 2, "the response in the snapshot and in the event")
        #expect(redactor.report.namedFields == 1, "the capture request, in the snapshot")

        let original = Recording.load(data: Data((lines.joined(separator: "\n") + "\n").utf8))
        let contents = Recording.load(data: output)
        #expect(original.problem == nil)
        #expect(contents.problem == nil)
        #expect(contents.frames.count == original.frames.count)
        #expect(contents.marks == original.marks)
        #expect(contents.header?.socket == "/tmp/x.sock")
        var state = LiveState()
        for frame in contents.frames { state.apply(frame, at: 0) }
        let response = try #require(state.log.first { $0.correlationId == "cap-1" && $0.type == .response })
        #expect(response.message?.payload.data?["imageBase64"] == .string("[redacted image/png 64x48 \(png.count) bytes sha256:\(fingerprint(png))]"))
    }

    @Test("redacting a redacted recording changes nothing and counts nothing: descriptors and tokens are not redacted again")
    func idempotent() throws {
        let png = SyntheticImage.png(width: 64, height: 48)
        let input = Data((Self.recording(image: png).joined(separator: "\n") + "\n").utf8)
        let options = Redactor.Options(fields: [try RedactionFieldPath(parsing: "data.documentNumber")])
        var first = Redactor(options: options)
        let once = first.redactRecording(input)
        var second = Redactor(options: options)
        let twice = second.redactRecording(once)
        #expect(first.report.replaced == 3)
        #expect(second.report.replaced == 0, "\(second.report)")
        #expect(twice == once)
    }

    @Test("a line that is not JSON is left out and counted, never passed through")
    func notJSONIsDropped() {
        let png = SyntheticImage.png(width: 20, height: 20)
        let lines = Self.recording(image: png)
        let damaged = "garbage " + png.base64EncodedString() + " {"
        var redactor = Redactor()
        let input = lines[0..<3].joined(separator: "\n") + "\n" + damaged + "\n" + lines[3] + "\n" + String(lines[3].prefix(20))
        let output = String(decoding: redactor.redactRecording(Data(input.utf8)), as: UTF8.self)
        #expect(!output.contains("garbage"))
        #expect(!output.contains(String(png.base64EncodedString().prefix(40))))
        #expect(redactor.report.droppedLines == [4, 6])
        #expect(redactor.report.summary.contains("dropped 2 lines that were not JSON (lines 4, 6)"))
        #expect(Recording.load(data: Data(output.utf8)).problem == nil)
    }

    @Test("hostile input does not crash: control characters, a huge string, deep nesting, a broken data URL")
    func hostileInput() throws {
        var redactor = Redactor()
        let controls = "\u{1B}[2J\u{0}\u{7F}\u{202E}" + String(repeating: "\u{1B}", count: 300)
        #expect(redactor.redact(text: controls) == controls)
        let huge = String(repeating: "A", count: 2_000_000)
        #expect(redactor.redact(text: huge).hasPrefix("[redacted "))
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        _ = redactor.redact(text: deep)
        _ = redactor.redactRecording(Data(deep.utf8))
        #expect(redactor.report.droppedLines == [1], "too deep to read: left out")
        _ = redactor.redact(text: "data:;base64,")
        _ = redactor.redact(text: "data:image/png;base64,%%%%")
        _ = redactor.redact(text: "data:image/png;base64," + String(repeating: "A", count: 301))
        _ = redactor.redact(text: String(repeating: "=", count: 1000) + String(repeating: "/", count: 1000))
        var fields = Redactor(options: .init(fields: [try RedactionFieldPath(parsing: "documentNumber")]))
        _ = fields.redact(text: #"{"documentNumber":"#)
        _ = fields.redact(text: #"{"documentNumber":"unterminated \"#)
        // The unterminated value above took token 1.
        #expect(fields.redact(text: #"x "documentNumber" : 12, y"#) == #"x "documentNumber" : "[redacted 2]", y"#)
    }

    @Test("field paths: dots and *, and what is refused")
    func fieldPaths() throws {
        #expect(try RedactionFieldPath(parsing: "data.*.number").description == "data.*.number")
        #expect(throws: RedactionFieldPath.Problem.self) { try RedactionFieldPath(parsing: "") }
        #expect(throws: RedactionFieldPath.Problem.self) { try RedactionFieldPath(parsing: "data..number") }
        #expect(throws: RedactionFieldPath.Problem.self) { try RedactionFieldPath(parsing: ".data") }
    }

    @Test("an exported log: message rows and malformed input redacted, sizes kept, rows with nothing to redact unchanged")
    func logForExport() throws {
        let png = SyntheticImage.png(width: 64, height: 48)
        var state = LiveState()
        for frame in Recording.load(data: Data((Self.recording(image: png).joined(separator: "\n") + "\n").utf8)).frames { state.apply(frame, at: 0) }
        var redactor = Redactor()
        let log = redactor.redact(log: state.log)
        #expect(log.count == state.log.count)
        for (before, after) in zip(state.log, log) {
            #expect(after.bytes == before.bytes)
            #expect(!String(decoding: after.json, as: UTF8.self).contains(String(png.base64EncodedString().prefix(40))))
            if before.correlationId == "req-1" { #expect(after.json == before.json) }
        }
        let har = String(decoding: HARExport(log: log, host: state.host).json(), as: UTF8.self)
        #expect(!har.contains(String(png.base64EncodedString().prefix(40))))
        #expect(har.contains("[redacted image/png 64x48"))
    }

    /// A recording in the documented format: header, hello, a snapshot holding a request and the
    /// capture's answer with `image` as base64, the same answer as a traffic event, a malformed
    /// input holding the image, and a mark.
    static func recording(image: Data) -> [String] {
        let host = #"{"environment":"ios","hostVersion":"1.0","name":"rec","pid":7,"startedAt":1000}"#
        let request = #"{"version":"1.0","correlationId":"req-1","type":"request","timestamp":1,"payload":{"action":"nfc.read"}}"#
        let capture = #"{"version":"1.0","correlationId":"cap-1","type":"request","timestamp":1,"payload":{"action":"camera.document.capture","data":{"documentNumber":"X1234567"}}}"#
        let answer = #"{"version":"1.0","correlationId":"cap-1","type":"response","timestamp":2,"payload":{"action":"camera.document.capture","status":"success","data":{"imageBase64":""# + image.base64EncodedString() + #"","imageWidth":64,"imageHeight":48,"mimeType":"image/png"}}}"#
        return [
            #"{"kind":"recording","version":1,"socket":"/tmp/x.sock","startedAt":2000,"client":"bridge-inspector record"}"#,
            #"{"kind":"hello","protocol":1,"agent":"a","host":\#(host),"features":[],"limits":{"maxFrameBytes":10,"maxClients":1}}"#,
            #"{"kind":"snapshot","seq":3,"state":{"host":\#(host),"journeyAttached":true,"lastError":null,"errorHistory":[],"messages":[{"seq":1,"direction":"received","time":5,"origin":"journey","bytes":10,"message":\#(request)},{"seq":2,"direction":"received","time":6,"origin":"journey","bytes":10,"message":\#(capture)},{"seq":3,"direction":"sent","time":7,"origin":"inspector","bytes":10,"message":\#(answer)}],"malformed":[],"pending":[{"correlationId":"req-1","action":"nfc.read","since":5,"message":\#(request)}],"slots":[],"customCapabilities":[],"counts":{"evicted":0,"malformed":0,"received":2,"sent":1}}}"#,
            #"{"kind":"event","seq":4,"event":{"type":"traffic","record":{"seq":4,"direction":"sent","time":8,"origin":"inspector","bytes":10,"message":\#(answer)}}}"#,
            #"{"kind":"mark","frame":2,"seq":4}"#,
        ]
    }
}
