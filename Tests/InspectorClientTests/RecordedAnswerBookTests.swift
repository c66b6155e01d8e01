import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// A recording made up of traffic events, in order, as `record` writes them after its snapshot.
private func recording(_ traffic: [WireTraffic]) -> Recording.Contents {
    let frames = traffic.enumerated().map { AgentFrame.event(seq: $0.offset + 2, event: .traffic($0.element)) }
    return Recording.Contents(header: nil, frames: frames, problem: nil, linesRead: frames.count)
}

private let error = BridgeErrorPayload(code: "CAMERA_DENIED", message: "no camera", recoverable: true)

/// A session: ready, a capability query, two device.info requests with different data, a
/// capture that fails, an orientation event after the journey's 3rd message, a journey event,
/// and a request left unanswered.
private let session: [WireTraffic] = [
    Fixture.hostEvent(seq: 1, id: "e0", name: "host.ready", at: 0, data: ["version": "7.1", "timestamp": 5]),
    Fixture.request(seq: 2, id: "q1", action: "capability.query", at: 10),
    Fixture.response(seq: 3, id: "q1", action: "capability.query", at: 12, data: ["hostVersion": "7.1"]),
    Fixture.request(seq: 4, id: "d1", action: "device.info", at: 20, data: ["fields": ["model"], "verbose": true]),
    Fixture.response(seq: 5, id: "d1", action: "device.info", at: 45, data: ["model": "iPhone 15"]),
    Fixture.request(seq: 6, id: "d2", action: "device.info", at: 50, data: ["fields": ["os"]]),
    Fixture.hostEvent(seq: 7, id: "e1", name: "host.orientation", at: 55, data: ["orientation": "landscape"]),
    Fixture.response(seq: 8, id: "d2", action: "device.info", at: 60, data: ["os": "17.4"]),
    Fixture.request(seq: 9, id: "c1", action: "camera.document.capture", at: 70),
    Fixture.response(seq: 10, id: "c1", action: "camera.document.capture", at: 170, status: .error, error: error),
    Fixture.traffic(seq: 11, .received, Fixture.message("j1", .event, "journey.cancel", at: 180, data: ["reason": "user"]), at: 180),
    Fixture.request(seq: 12, id: "n1", action: "nfc.read", at: 190),
]

@Suite("Recorded answer book")
struct RecordedAnswerBookTests {
    @Test("the book holds every journey request with its recorded answer and latency, in order, and the host events apart")
    func building() {
        let book = RecordedAnswerBook(contents: recording(session))
        #expect(book.exchanges.map(\.action) == ["capability.query", "device.info", "device.info", "camera.document.capture", "nfc.read"])
        #expect(book.exchanges.map(\.journeyMessage) == [1, 2, 3, 4, 6], "the journey's event is its 5th message")
        #expect(book.exchanges.map(\.index) == [0, 1, 2, 3, 4])
        #expect(book.exchanges[1].data == ["fields": ["model"], "verbose": true])
        #expect(book.exchanges[1].answer == .init(status: .success, data: ["model": "iPhone 15"], latencyMs: 25))
        #expect(book.exchanges[3].answer == .init(status: .error, error: error, latencyMs: 100))
        #expect(book.exchanges[4].answer == nil, "nfc.read was never answered in the recording")
        #expect(book.readyEvents == [.init(action: "host.ready", data: ["version": "7.1", "timestamp": 5], afterJourneyMessage: 0)])
        #expect(book.events == [.init(action: "host.orientation", data: ["orientation": "landscape"], afterJourneyMessage: 3)])
        #expect(book.journeyMessageCount == 6)
        #expect(book.actions == ["camera.document.capture", "capability.query", "device.info", "nfc.read"])
        #expect(book.answeredActions == ["camera.document.capture", "capability.query", "device.info"])
    }

    @Test("what an inspector injected posing as the journey is not the journey: not counted, not an exchange")
    func injectedIsLeftOut() {
        let injected = Fixture.traffic(seq: 2, .received, Fixture.message("i1", .request, "device.info", at: 5), at: 5, origin: .inspector)
        let book = RecordedAnswerBook(contents: recording([
            injected,
            Fixture.response(seq: 3, id: "i1", action: "device.info", at: 6),
            Fixture.request(seq: 4, id: "r1", action: "device.info", at: 7, data: ["a": 1]),
            Fixture.hostEvent(seq: 5, id: "e1", name: "host.ping", at: 8),
        ]))
        #expect(book.exchanges.map(\.recordedId) == ["r1"])
        #expect(book.events.map(\.afterJourneyMessage) == [1])
    }

    @Test("a request matches by action and equal data (key order and absent data do not matter), in recorded order")
    func matchingByActionAndData() {
        var playback = RecordedPlayback(book: RecordedAnswerBook(contents: recording(session)))
        // Data equal to d2's: d2's answer, though d1 comes first.
        guard case .answer(let second, let answer, false, false) = playback.answer(action: "device.info", data: ["fields": ["os"]]) else {
            Issue.record("device.info with d2's data was not answered")
            return
        }
        #expect(second.recordedId == "d2")
        #expect(answer.data == ["os": "17.4"])
        // The same keys in another order is the same question.
        let reordered = try? JSONDecoder().decode([String: JSONValue].self, from: Data(#"{"verbose":true,"fields":["model"]}"#.utf8))
        guard case .answer(let first, _, false, false) = playback.answer(action: "device.info", data: reordered) else {
            Issue.record("device.info with d1's data in another key order was not answered")
            return
        }
        #expect(first.recordedId == "d1")
        // Absent data and {} are the same empty question.
        guard case .answer(let query, _, false, false) = playback.answer(action: "capability.query", data: [:]) else {
            Issue.record("capability.query with {} was not answered")
            return
        }
        #expect(query.recordedId == "q1")
        #expect(playback.used == [0, 1, 2])
    }

    @Test("ties go to recorded order; a retry after every match is used gets the last matching answer again")
    func tiesAndRetries() {
        let book = RecordedAnswerBook(contents: recording([
            Fixture.request(seq: 1, id: "a", action: "scan", at: 0, data: ["n": 1]),
            Fixture.response(seq: 2, id: "a", action: "scan", at: 1, status: .error, error: error),
            Fixture.request(seq: 3, id: "b", action: "scan", at: 2, data: ["n": 1]),
            Fixture.response(seq: 4, id: "b", action: "scan", at: 3, data: ["ok": true]),
        ]))
        var playback = RecordedPlayback(book: book)
        var got: [String] = []
        var again: [Bool] = []
        for _ in 0..<3 {
            if case .answer(let exchange, _, _, let isAgain) = playback.answer(action: "scan", data: ["n": 1]) {
                got.append(exchange.recordedId)
                again.append(isAgain)
            }
        }
        #expect(got == ["a", "b", "b"], "first the error, then the retry's success, then that success again")
        #expect(again == [false, false, true])
    }

    @Test("an unknown action, or data that differs, is not answered, and the reason names the fields that differ")
    func unknownIsNotAnswered() {
        var playback = RecordedPlayback(book: RecordedAnswerBook(contents: recording(session)))
        guard case .unanswered(let unknown) = playback.answer(action: "nfc.write", data: nil) else {
            Issue.record("an action the recording does not hold was answered")
            return
        }
        #expect(unknown.contains("holds no 'nfc.write' request"))
        guard case .unanswered(let differs) = playback.answer(action: "device.info", data: ["fields": ["model"], "verbose": false, "nonce": "x"])
        else {
            Issue.record("device.info with other data was answered")
            return
        }
        #expect(differs.contains("differs at data.nonce, data.verbose"), "\(differs)")
        #expect(differs.contains("--match-ignore data.nonce --match-ignore data.verbose"), "\(differs)")
        #expect(playback.used.isEmpty, "nothing was used by requests that were not answered")
        // A request the recording holds but never saw answered is not answered either.
        guard case .unanswered(let neverAnswered) = playback.answer(action: "nfc.read", data: nil) else {
            Issue.record("nfc.read, never answered in the recording, was answered")
            return
        }
        #expect(neverAnswered.contains("no answer to it"))
    }

    @Test("with --match-ignore, data that differs only in the named fields gets the recorded answer; an exact match wins over it")
    func matchIgnore() throws {
        let book = RecordedAnswerBook(contents: recording([
            Fixture.request(seq: 1, id: "loose", action: "sign", at: 0, data: ["doc": "A", "nonce": "r1", "items": [["id": 1, "at": 5]]]),
            Fixture.response(seq: 2, id: "loose", action: "sign", at: 1, data: ["sig": "1"]),
            Fixture.request(seq: 3, id: "exact", action: "sign", at: 2, data: ["doc": "A", "nonce": "live", "items": [["id": 1, "at": 9]]]),
            Fixture.response(seq: 4, id: "exact", action: "sign", at: 3, data: ["sig": "2"]),
        ]))
        let paths = try [#require(RecordedDataPath("data.nonce")), #require(RecordedDataPath("items.*.at"))]
        var playback = RecordedPlayback(book: book, ignoredPaths: paths)
        let live: [String: JSONValue] = ["doc": "A", "nonce": "live", "items": [["id": 1, "at": 9]]]
        guard case .answer(let exact, _, false, false) = playback.answer(action: "sign", data: live) else {
            Issue.record("the exact match was not answered")
            return
        }
        #expect(exact.recordedId == "exact", "an exact match wins over an earlier loose one")
        guard case .answer(let loose, _, true, false) = playback.answer(action: "sign", data: live) else {
            Issue.record("the loose match was not answered")
            return
        }
        #expect(loose.recordedId == "loose")
        // Without the paths the first live request still matches exactly; the second is a retry.
        var strict = RecordedPlayback(book: book)
        _ = strict.answer(action: "sign", data: live)
        guard case .answer(let retried, _, false, true) = strict.answer(action: "sign", data: live) else {
            Issue.record("without --match-ignore the second request was not a retry of the exact one")
            return
        }
        #expect(retried.recordedId == "exact")
        // A field outside the ignored ones still tells them apart.
        guard case .unanswered = playback.answer(action: "sign", data: ["doc": "B", "nonce": "x", "items": [["id": 1, "at": 1]]]) else {
            Issue.record("data differing outside the ignored fields was answered")
            return
        }
    }

    @Test("--match-ignore paths: data. is optional, * stands for any key or element, empty segments are refused")
    func dataPaths() throws {
        #expect(RecordedDataPath("data.a.b")?.segments == ["a", "b"])
        #expect(RecordedDataPath("a.b")?.description == "data.a.b")
        #expect(RecordedDataPath("") == nil)
        #expect(RecordedDataPath("data") == nil)
        #expect(RecordedDataPath("a..b") == nil)
        let path = try #require(RecordedDataPath("list.*.t"))
        #expect(path.removing(from: ["list": [["t": 1, "k": 2], ["t": 3]], "t": 4]) == ["list": [["k": 2], [:]], "t": 4])
        let element = try #require(RecordedDataPath("list.1"))
        #expect(element.removing(from: ["list": [1, 2, 3]]) == ["list": [1, .null, 3]], "later elements keep their places")
        #expect(element.removing(from: ["list": "not a list"]) == ["list": "not a list"])
    }

    @Test("events: each attach starts the recording again with host.ready and what came before any message; later events follow the right message")
    func eventsPlacedAfterTheRightMessage() {
        var book = RecordedAnswerBook(contents: recording(session))
        book = RecordedAnswerBook(
            exchanges: book.exchanges, events: book.events + [.init(action: "host.ping", data: nil, afterJourneyMessage: 0)],
            readyEvents: book.readyEvents)
        var playback = RecordedPlayback(book: book)
        let attach = playback.pageAttached()
        #expect(attach.ready?.data?["version"] == "7.1")
        #expect(attach.events.map(\.action) == ["host.ping"])
        #expect(playback.journeyMessageArrived().isEmpty)
        #expect(playback.journeyMessageArrived().isEmpty)
        #expect(playback.journeyMessageArrived().map(\.action) == ["host.orientation"], "after the journey's 3rd message")
        #expect(playback.journeyMessageArrived().isEmpty)
        _ = playback.answer(action: "capability.query", data: nil)
        #expect(!playback.used.isEmpty)
        // A reload: the recording starts again.
        _ = playback.pageAttached()
        #expect(playback.used.isEmpty)
        #expect(playback.journeyMessages == 0)
        #expect(playback.attaches == 2)
        _ = playback.journeyMessageArrived()
        _ = playback.journeyMessageArrived()
        #expect(playback.journeyMessageArrived().map(\.action) == ["host.orientation"])
    }

    @Test("hostile text in a recording is kept as data, never interpreted; a response without its request is no exchange")
    func hostileText() {
        let action = "device.info\u{1B}[2J\u{202E}"
        let book = RecordedAnswerBook(contents: recording([
            Fixture.response(seq: 1, id: "orphan", action: "x", at: 0),
            Fixture.request(seq: 2, id: "r\u{7}1", action: action, at: 1, data: ["\u{1B}]0;owned\u{7}": "\u{9B}31m"]),
            Fixture.response(seq: 3, id: "r\u{7}1", action: action, at: 2, data: ["v": "\u{2028}"]),
        ]))
        #expect(book.exchanges.count == 1)
        #expect(book.exchanges.first?.action == action)
        var playback = RecordedPlayback(book: book)
        guard case .answer(_, let answer, _, _) = playback.answer(action: action, data: ["\u{1B}]0;owned\u{7}": "\u{9B}31m"]) else {
            Issue.record("the hostile request was not answered as recorded")
            return
        }
        #expect(answer.data == ["v": "\u{2028}"])
        guard case .unanswered(let reason) = playback.answer(action: action, data: ["other": 1]) else {
            Issue.record("other data was answered")
            return
        }
        // The reason quotes the recording's text: the host makes it safe before printing it.
        #expect(reason.contains(action))
    }

    @Test("an empty or unreadable recording makes an empty book, and every request goes unanswered")
    func emptyBook() {
        let book = RecordedAnswerBook(contents: Recording.load(data: Data("not json\n".utf8)))
        #expect(book.exchanges.isEmpty && book.events.isEmpty && book.readyEvents.isEmpty)
        var playback = RecordedPlayback(book: book)
        #expect(playback.pageAttached().ready == nil)
        guard case .unanswered = playback.answer(action: "capability.query", data: nil) else {
            Issue.record("an empty book answered")
            return
        }
    }
}
