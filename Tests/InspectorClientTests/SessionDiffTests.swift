import BridgeCore
import Foundation
@testable import InspectorClient
import InspectorProtocol
import Testing

/// Issue 28, part 3: two sessions aligned by what happened (never by ids or times) and
/// compared: status, error code, fields with their paths, answers on one side, latency, added,
/// missing and moved items.
@Suite("Session diff")
struct SessionDiffTests {
    typealias Item = SessionTranscript.Item
    typealias Answer = SessionTranscript.Answer

    /// A run of a made-up journey: ids and times depend on `run`, so two runs share nothing but
    /// what happened.
    static func journey(run: Int, captureType: String = "passport", status: BridgeResponseStatus = .success, latency: Double = 120) -> [Item] {
        let t = Double(run) * 1_000_000
        return [
            Item(kind: .event, direction: .sent, action: "host.ready", seq: 1, time: t, correlationId: "ios-event-\(run)",
                 data: .object(["timestamp": .number(t), "version": .string("1.0.0")])),
            request(run: run, seq: 2, "device.info", data: ["model": .string("iPhone")], latency: 12),
            request(run: run, seq: 4, "camera.document.capture",
                    data: ["document": .object(["type": .string(captureType), "capturedAt": .number(t + 5)])], status: status, latency: latency),
            Item(kind: .event, direction: .received, action: "journey.step", seq: 6, time: t + 10, correlationId: "web-event-\(run)",
                 data: .object(["step": .string("done")])),
            Item(kind: .event, direction: .sent, action: "host.background", seq: 7, time: t + 20, correlationId: "ios-event-\(run)-b"),
        ]
    }

    static func request(
        run: Int, seq: Int, _ action: String, data: [String: JSONValue]? = nil, status: BridgeResponseStatus = .success,
        error: BridgeErrorPayload? = nil, latency: Double = 10
    ) -> Item {
        let t = Double(run) * 1_000_000 + Double(seq)
        return Item(
            kind: .request, direction: .received, action: action, seq: seq, time: t, correlationId: "web-\(run)-\(seq)",
            answer: Answer(seq: seq + 1, time: t + latency, correlationId: "web-\(run)-\(seq)", status: status, error: error,
                           data: data.map(JSONValue.object), latencyMs: latency))
    }

    static func transcript(_ items: [Item], name: String = "left.jsonl") -> SessionTranscript {
        SessionTranscript(name: name, hostName: "demo", items: items)
    }

    static func diff(_ left: [Item], _ right: [Item], options: SessionDiffOptions = SessionDiffOptions()) -> SessionDiff {
        SessionDiff(left: transcript(left), right: transcript(right, name: "right.jsonl"), options: options)
    }

    @Test("Two runs of the same journey, every id and timestamp different, are the same")
    func equalSessions() {
        let diff = Self.diff(Self.journey(run: 1), Self.journey(run: 2))
        #expect(diff.isSame, "\(diff.differences)")
        #expect(diff.alignedCount == 5)
        #expect(diff.summary == "no differences (5 items aligned)")
    }

    @Test("A status that changed is one difference, with both statuses")
    func statusChanged() throws {
        let diff = Self.diff(Self.journey(run: 1), Self.journey(run: 2, status: .error))
        try #require(diff.differences.count == 1, "\(diff.differences)")
        let difference = diff.differences[0]
        #expect(difference.kind == .statusChanged)
        #expect(difference.path == "status")
        #expect(difference.old == "success")
        #expect(difference.new == "error")
        #expect(difference.left?.action == "camera.document.capture")
        #expect(difference.left?.correlationId == "web-1-4")
        #expect(difference.right?.correlationId == "web-2-4")
        #expect(diff.summary == "1 difference: 1 status changed")
    }

    @Test("An error code that changed is reported as such, and an error on one side only says its code once")
    func errorCodeChanged() {
        let busy = BridgeErrorPayload(code: "BUSY", message: "Another native operation is in progress", recoverable: true)
        let denied = BridgeErrorPayload(code: "CAMERA_DENIED", message: "Another native operation is in progress", recoverable: true)
        let left = [Self.request(run: 1, seq: 2, "camera.selfie.capture", status: .error, error: busy)]
        let changed = Self.diff(left, [Self.request(run: 2, seq: 2, "camera.selfie.capture", status: .error, error: denied)])
        #expect(changed.differences.map(\.kind) == [.errorCodeChanged])
        #expect(changed.differences.first?.old == "BUSY")
        #expect(changed.differences.first?.new == "CAMERA_DENIED")
        let noError = Self.diff(left, [Self.request(run: 2, seq: 2, "camera.selfie.capture")])
        #expect(noError.differences.map(\.kind) == [.statusChanged, .errorCodeChanged], "\(noError.differences)")
        #expect(noError.differences.last?.old == "BUSY")
        #expect(noError.differences.last?.new == nil)
    }

    @Test("A data field that changed is reported with its path and both values")
    func fieldChanged() throws {
        let diff = Self.diff(Self.journey(run: 1), Self.journey(run: 2, captureType: "id_card"))
        try #require(diff.differences.count == 1, "\(diff.differences)")
        let difference = diff.differences[0]
        #expect(difference.kind == .fieldChanged)
        #expect(difference.part == .answer)
        #expect(difference.path == "data.document.type")
        #expect(difference.old == "\"passport\"")
        #expect(difference.new == "\"id_card\"")
    }

    @Test("Array elements and members on one side only have paths too")
    func arrayAndAbsentFields() {
        let left = [Item(kind: .event, direction: .sent, action: "host.list", data: .object(["items": .array([.number(1), .number(2)])]))]
        let right = [Item(kind: .event, direction: .sent, action: "host.list", data: .object(["items": .array([.number(1), .number(3), .number(4)]), "new": .bool(true)]))]
        let diff = Self.diff(left, right)
        #expect(diff.differences.map(\.path) == ["data.items[1]", "data.items[2]", "data.new"])
        #expect(diff.differences.map(\.part) == [.message, .message, .message])
        #expect(diff.differences[1].old == nil)
        #expect(diff.differences[1].new == "4")
    }

    @Test("A host event missing on the right is one difference: event missing")
    func eventMissing() {
        var right = Self.journey(run: 2)
        right.remove(at: 4)
        let diff = Self.diff(Self.journey(run: 1), right)
        #expect(diff.differences.map(\.kind) == [.missing])
        #expect(diff.differences.first?.left?.action == "host.background")
        #expect(diff.differences.first?.right == nil)
        #expect(diff.summary == "1 difference: 1 event missing")
    }

    @Test("An extra request on the right is one difference: request added")
    func extraItem() {
        var right = Self.journey(run: 2)
        right.insert(Self.request(run: 2, seq: 40, "nfc.read"), at: 2)
        let diff = Self.diff(Self.journey(run: 1), right)
        #expect(diff.differences.map(\.kind) == [.added])
        #expect(diff.differences.first?.right?.action == "nfc.read")
        #expect(diff.differences.first?.right?.index == 2)
        #expect(diff.summary == "1 difference: 1 request added")
    }

    @Test("Two items that swapped places are reported once, as moved, not as added and missing")
    func reorderedPair() {
        var right = Self.journey(run: 2)
        right.swapAt(1, 2)
        let diff = Self.diff(Self.journey(run: 1), right)
        #expect(diff.differences.map(\.kind) == [.moved], "\(diff.differences)")
        #expect(diff.summary == "1 difference: 1 request moved")
        // An item of the same key but other content is not a move: whichever of the two the
        // alignment keeps in place, the changed capture is never "moved".
        var changed = Self.journey(run: 2, captureType: "id_card")
        changed.swapAt(1, 2)
        let kinds = Self.diff(Self.journey(run: 1), changed).differences.map { "\($0.kind) \(($0.left ?? $0.right)?.action ?? "")" }
        #expect(Set(kinds) == ["missing camera.document.capture", "added camera.document.capture"]
            || Set(kinds) == ["moved device.info", "fieldChanged camera.document.capture"], "\(kinds)")
    }

    @Test("A request answered on one side and pending on the other is an answer missing or extra")
    func answeredAndPending() {
        var pending = Self.journey(run: 2)
        pending[2].answer = nil
        let missing = Self.diff(Self.journey(run: 1), pending)
        #expect(missing.differences.map(\.kind) == [.answerMissing])
        #expect(missing.differences.first?.left?.answerSeq == 5)
        #expect(missing.differences.first?.right?.answerSeq == nil)
        let extra = Self.diff(pending, Self.journey(run: 1))
        #expect(extra.differences.map(\.kind) == [.answerExtra])
        #expect(missing.summary == "1 difference: 1 answer missing")
    }

    @Test("Latency counts only when more than 2× and more than 250 ms apart, either way, and the tolerance is configurable")
    func latency() throws {
        let slow = Self.diff(Self.journey(run: 1, latency: 120), Self.journey(run: 2, latency: 2120))
        try #require(slow.differences.map(\.kind) == [.latencyChanged])
        #expect(slow.differences[0].leftLatencyMs == 120)
        #expect(slow.differences[0].rightLatencyMs == 2120)
        #expect(Self.diff(Self.journey(run: 1, latency: 2120), Self.journey(run: 2, latency: 120)).differences.map(\.kind) == [.latencyChanged])
        // 3× but only 240 ms apart; 300 ms apart but under 2×.
        #expect(Self.diff(Self.journey(run: 1, latency: 120), Self.journey(run: 2, latency: 360)).isSame)
        #expect(Self.diff(Self.journey(run: 1, latency: 400), Self.journey(run: 2, latency: 700)).isSame)
        let strict = SessionDiffOptions(latency: .init(factor: 1.5, minimumMs: 100))
        #expect(Self.diff(Self.journey(run: 1, latency: 400), Self.journey(run: 2, latency: 700), options: strict).differences.map(\.kind) == [.latencyChanged])
    }

    @Test("By default time-named fields and host event ids are ignored; --no-default-ignores compares them")
    func defaultIgnores() throws {
        let eventId = "ios-event-0F8FAD5B-D9CB-469F-A165-70867728950E"
        let other = "android-event-7c9e6679-7425-40de-944b-e07fc1f90ae7"
        let left = [Item(kind: .event, direction: .sent, action: "host.ping", data: .object(["time": .number(1), "sentAt": .number(2), "ref": .string(eventId)]))]
        let right = [Item(kind: .event, direction: .sent, action: "host.ping", data: .object(["time": .number(5), "sentAt": .number(6), "ref": .string(other)]))]
        #expect(Self.diff(left, right).isSame)
        let strict = Self.diff(left, right, options: SessionDiffOptions(useDefaultIgnores: false))
        #expect(strict.differences.map(\.path) == ["data.ref", "data.sentAt", "data.time"])
        // `format` is not a time (`At` must follow a lower-case letter).
        #expect(!SessionDiffOptions.namesTime("format"))
        #expect(SessionDiffOptions.namesTime("capturedAt"))
        #expect(SessionDiffOptions.namesTime("startTime"))
        // The journey's first run's capture time differs from the second's but was ignored above.
        #expect(Self.diff(Self.journey(run: 1), Self.journey(run: 2), options: SessionDiffOptions(useDefaultIgnores: false))
            .differences.compactMap(\.path) == ["data.timestamp", "data.document.capturedAt"])
    }

    @Test("--ignore paths leave values out, with * for any key and [*] for any element")
    func ignorePaths() throws {
        let left = [Item(kind: .event, direction: .sent, action: "a", data: .object([
            "sessionId": .string("s1"), "user": .object(["id": .string("u1")]), "list": .array([.object(["k": .number(1)])]),
        ]))]
        let right = [Item(kind: .event, direction: .sent, action: "a", data: .object([
            "sessionId": .string("s2"), "user": .object(["id": .string("u2")]), "list": .array([.object(["k": .number(2)])]),
        ]))]
        #expect(Self.diff(left, right).differences.count == 3)
        let ignores = try ["data.sessionId", "data.*.id", "data.list[*].k"].map { try SessionIgnorePath(parsing: $0) }
        #expect(Self.diff(left, right, options: SessionDiffOptions(ignoredPaths: ignores)).isSame)
        let whole = try SessionIgnorePath(parsing: "data")
        #expect(Self.diff(left, right, options: SessionDiffOptions(ignoredPaths: [whole])).isSame)
        let version = try SessionIgnorePath(parsing: "version")
        var newer = right
        newer[0].data = left[0].data
        newer[0].version = "2.0"
        #expect(Self.diff(left, newer).differences.map(\.path) == ["version"])
        #expect(Self.diff(left, newer, options: SessionDiffOptions(ignoredPaths: [version])).isSame)
        for bad in ["", "data..x", "data.items[x]", "data.items[1", ".data"] {
            #expect(throws: SessionIgnorePath.ParseError.self, "\(bad)") { try SessionIgnorePath(parsing: bad) }
        }
    }

    @Test("Long base64 is compared by length and hash and shown that way")
    func base64() throws {
        let image = String(repeating: "iVBORw0KGgo", count: 100)
        let other = String(repeating: "iVBORw0KGgp", count: 100)
        let left = [Item(kind: .event, direction: .sent, action: "a", data: .object(["image": .string(image)]))]
        let same = [Item(kind: .event, direction: .sent, action: "a", data: .object(["image": .string(image)]))]
        let right = [Item(kind: .event, direction: .sent, action: "a", data: .object(["image": .string(other)]))]
        #expect(Self.diff(left, same).isSame)
        let diff = Self.diff(left, right)
        try #require(diff.differences.count == 1)
        #expect(diff.differences[0].old?.hasPrefix("[redacted base64 825 bytes sha256:") == true, "\(diff.differences[0])")
        #expect(diff.differences[0].old != diff.differences[0].new)
    }

    @Test("A recording redacted by `redact` compares equal to the session it came from: images by their descriptor, named fields left out")
    func redactedSide() throws {
        let png = SyntheticImage.capturePNG(.document, width: 64, height: 48)
        let image = "data:image/png;base64," + Data(png).base64EncodedString()
        let data = JSONValue.object(["image": .string(image), "documentNumber": .string("P1234567"), "type": .string("passport")])
        var redactor = Redactor(options: .init(fields: [try RedactionFieldPath(parsing: "data.documentNumber")]))
        let message = JSONValue.object([
            "version": .string("1.0"), "correlationId": .string("c1"), "type": .string("response"),
            "payload": .object(["action": .string("a"), "data": data]),
        ])
        guard case .object(let redactedMessage) = redactor.redact(message), case .object(let payload)? = redactedMessage["payload"],
            let redactedData = payload["data"]
        else { Issue.record("not an object"); return }
        #expect(redactor.report.images == 1 && redactor.report.namedFields == 1)
        let live = [Item(kind: .event, direction: .sent, action: "a", data: data)]
        let redacted = [Item(kind: .event, direction: .sent, action: "a", data: redactedData)]
        #expect(Self.diff(live, redacted).isSame, "\(Self.diff(live, redacted).differences)")
        // A different image on the live side is still a difference, shown by its descriptor.
        let otherPNG = SyntheticImage.capturePNG(.selfie, width: 64, height: 48)
        var changed = data
        if case .object(var fields) = changed { fields["image"] = .string("data:image/png;base64," + Data(otherPNG).base64EncodedString()); changed = .object(fields) }
        let diff = Self.diff([Item(kind: .event, direction: .sent, action: "a", data: changed)], redacted)
        try #require(diff.differences.count == 1, "\(diff.differences)")
        #expect(diff.differences[0].path == "data.image")
        #expect(diff.differences[0].old?.hasPrefix("[redacted image/png 64x48 ") == true, "\(diff.differences[0])")
    }

    @Test("100,000 items a side with a few differences align and report exactly those")
    func largeSessions() {
        let actions = ["device.info", "camera.document.capture", "nfc.read", "camera.selfie.capture", "location.get"]
        func session(run: Int) -> [Item] {
            (0..<100_000).map { index in
                Self.request(run: run, seq: index * 2, actions[index % actions.count], data: ["n": .number(Double(index % 7))])
            }
        }
        let left = session(run: 1)
        var right = session(run: 2)
        right[10_000].answer?.status = .error
        right.remove(at: 50_000)
        right.insert(Self.request(run: 2, seq: 9, "extra.action"), at: 70_000)
        right[90_000].answer?.data = .object(["n": .number(99)])
        let diff = Self.diff(left, right)
        #expect(diff.differences.map(\.kind) == [.statusChanged, .missing, .added, .fieldChanged], "\(diff.differences.prefix(10))")
        #expect(diff.differences[1].left?.index == 50_000)
        #expect(diff.differences[2].right?.action == "extra.action")
        #expect(diff.differences[3].path == "data.n")
        #expect(diff.alignedCount == 99_999)
    }

    @Test("The alignment is a longest common subsequence (checked against dynamic programming on every small pair and on longer ones)")
    func alignmentIsOptimal() {
        // Every sequence over three keys of up to three items, against every other.
        var small: [[Int]] = [[]]
        var frontier: [[Int]] = [[]]
        for _ in 0..<3 {
            frontier = frontier.flatMap { prefix in (0..<3).map { prefix + [$0] } }
            small += frontier
        }
        var pairs = small.flatMap { a in small.map { b in (a, b) } }
        // Longer ones, where the middle snake recurses several times.
        for seed in 0..<40 {
            let a = (0..<(20 + seed)).map { ($0 * $0 + seed) % 4 }
            let b = (0..<(30 - seed % 7)).map { ($0 * 7 + seed * 3 + $0 / 3) % 4 }
            pairs.append((a, b))
        }
        for (a, b) in pairs {
            let matches = SequenceAlignment(left: a, right: b).matches
            // Every pair is equal, both indexes strictly increase, and there are as many as the
            // longest common subsequence has.
            #expect(matches.allSatisfy { a[$0.left] == b[$0.right] })
            #expect(zip(matches, matches.dropFirst()).allSatisfy { $0.left < $1.left && $0.right < $1.right })
            var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                for j in stride(from: b.count - 1, through: 0, by: -1) {
                    table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
                }
            }
            #expect(matches.count == table[0][0], "\(a) \(b)")
        }
    }

    @Test("The text report has a header per side, a block per difference with both messages, made safe, and the summary")
    func text() {
        let hostile = "x\u{1B}[2Jy"
        var right = Self.journey(run: 2, status: .error)
        right[4].action = hostile
        right[3].data = .object(["step": .string(hostile)])
        let lines = Self.diff(Self.journey(run: 1), right).textLines(safe: { $0.replacingOccurrences(of: "\u{1B}", with: "^[") }, timeFormat: TimeFormat(utcOffsetSeconds: 0))
        let text = lines.joined(separator: "\n")
        #expect(lines[0] == "left   left.jsonl: host demo, 7 messages, 00:16:40.000 to 00:16:40.124 (124ms)", "\(text)")
        #expect(lines[1].hasPrefix("right  right.jsonl: host demo, 7 messages, 00:33:20.000"))
        #expect(text.contains("status changed: the answer to camera.document.capture"))
        #expect(text.contains("  left   #4 request camera.document.capture from the journey (id web-1-4) → success in 120ms"))
        #expect(text.contains("  right  #4 request camera.document.capture from the journey (id web-2-4) → error in 120ms"))
        #expect(text.contains("  status: success → error"))
        #expect(text.contains(#"  data.step: "done" → "x\u001b[2Jy""#), "\(text)")
        #expect(text.contains("event missing: event host.background"))
        #expect(text.contains("event added: event x^[[2Jy"))
        #expect(text.contains("  right  #7 event x^[[2Jy from the host (id ios-event-2-b)"))
        #expect(!text.contains("\u{1B}"))
        #expect(lines.last == "4 differences: 1 status changed, 1 field changed, 1 event missing, 1 event added")
    }

    @Test("The JSON report names every difference with kind, left and right, path, old and new")
    func json() throws {
        var right = Self.journey(run: 2, captureType: "id_card")
        right.remove(at: 4)
        let diff = Self.diff(Self.journey(run: 1), right, options: SessionDiffOptions(ignoredPaths: [try SessionIgnorePath(parsing: "data.x")]))
        let root = try #require(try JSONSerialization.jsonObject(with: diff.json()) as? [String: Any])
        #expect(root["same"] as? Bool == false)
        #expect(root["summary"] as? String == "2 differences: 1 field changed, 1 event missing")
        let differences = try #require(root["differences"] as? [[String: Any]])
        #expect(differences.count == 2)
        #expect(differences[0]["kind"] as? String == "fieldChanged")
        #expect(differences[0]["path"] as? String == "data.document.type")
        #expect(differences[0]["old"] as? String == "\"passport\"")
        #expect(differences[0]["new"] as? String == "\"id_card\"")
        #expect(differences[0]["part"] as? String == "answer")
        #expect((differences[0]["left"] as? [String: Any])?["seq"] as? Int == 4)
        #expect((differences[0]["left"] as? [String: Any])?["action"] as? String == "camera.document.capture")
        #expect((differences[0]["right"] as? [String: Any])?["correlationId"] as? String == "web-2-4")
        #expect(differences[1]["kind"] as? String == "missing")
        #expect(differences[1]["right"] == nil)
        #expect((root["counts"] as? [String: Int]) == ["fieldChanged": 1, "missing": 1])
        #expect((root["ignored"] as? [String: Any])?["paths"] as? [String] == ["data.x"])
        #expect((root["left"] as? [String: Any])?["messages"] as? Int == 7)
    }
}
