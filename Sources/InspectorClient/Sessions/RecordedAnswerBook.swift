import BridgeCore
import Foundation
import InspectorProtocol

/// What a recorded host answered, read from a recording: the book `bridge-inspector host
/// --recording FILE` answers a live journey from, so a web developer can run their journey
/// against what a real app answered, without the app.
///
/// Built once from a recording (``init(contents:)``), read the way `open` reads it (the frames
/// fed to a ``LiveState``). It holds, in recorded order:
///
/// - every request the journey sent, with the answer the journey got (``Exchange``): status,
///   data, error and the recorded latency; a request the recording never saw answered has no
///   answer;
/// - every event the host sent, with its place among the journey's messages (``HostEvent``):
///   "after the journey's k-th message", or before any (k = 0);
/// - the `host.ready` events apart (``readyEvents``): a host sends one when a page attaches, so
///   they belong to the attach, not to a place among the messages.
///
/// The journey's messages are what it sent that the host read (requests and events, not
/// malformed text); what an inspector injected or replayed posing as the journey is left out, as
/// the live journey will not send it. Answers are kept whoever made them (the app's handlers, a
/// reply rule, a person answering by hand): each is what the journey saw.
///
/// The book is a value and does not change: ``RecordedPlayback`` keeps which exchanges a live
/// journey has used and matches its requests (the rule is documented there).
///
/// ```swift
/// let book = RecordedAnswerBook(contents: Recording.load(from: url))
/// var playback = RecordedPlayback(book: book)
/// let decision = playback.answer(action: "device.info", data: nil)
/// ```
public struct RecordedAnswerBook: Sendable, Hashable {
    /// The answer the journey got to one recorded request.
    public struct Answer: Sendable, Hashable {
        /// The response's status (`nil` when the response carried none).
        public var status: BridgeResponseStatus?
        /// The response's data.
        public var data: [String: JSONValue]?
        /// The response's error.
        public var error: BridgeErrorPayload?
        /// How long the recorded host took to answer, in milliseconds (without time held at
        /// breakpoints), when the recording knows it.
        public var latencyMs: Double?

        /// Creates an answer.
        public init(status: BridgeResponseStatus?, data: [String: JSONValue]? = nil, error: BridgeErrorPayload? = nil, latencyMs: Double? = nil) {
            self.status = status
            self.data = data
            self.error = error
            self.latencyMs = latencyMs
        }
    }

    /// One recorded request and the answer the journey got.
    public struct Exchange: Sendable, Hashable {
        /// Its place in ``RecordedAnswerBook/exchanges`` (0-based): recorded order.
        public var index: Int
        /// The request's action (untrusted text: make it safe before printing it).
        public var action: String
        /// The request's data.
        public var data: [String: JSONValue]?
        /// The request's place among the journey's messages (1 for its first message).
        public var journeyMessage: Int
        /// The recorded request's correlation id, to name it to a person (untrusted).
        public var recordedId: String
        /// The answer, or `nil` when the recording holds none (it was still pending, or dropped).
        public var answer: Answer?

        /// Creates an exchange.
        public init(index: Int, action: String, data: [String: JSONValue]?, journeyMessage: Int, recordedId: String, answer: Answer?) {
            self.index = index
            self.action = action
            self.data = data
            self.journeyMessage = journeyMessage
            self.recordedId = recordedId
            self.answer = answer
        }
    }

    /// One event the recorded host sent, and where.
    public struct HostEvent: Sendable, Hashable {
        /// The event's name, such as `host.orientation` (untrusted).
        public var action: String
        /// Its data.
        public var data: [String: JSONValue]?
        /// How many of the journey's messages the host had received when it sent the event:
        /// 0 for before any, k for after the journey's k-th message.
        public var afterJourneyMessage: Int

        /// Creates an event.
        public init(action: String, data: [String: JSONValue]?, afterJourneyMessage: Int) {
            self.action = action
            self.data = data
            self.afterJourneyMessage = afterJourneyMessage
        }
    }

    /// The name of the event a host sends when a journey attaches.
    public static let readyEventName = "host.ready"

    /// Every recorded request with its answer, in recorded order.
    public private(set) var exchanges: [Exchange] = []
    /// Every event the host sent but `host.ready`, in recorded order.
    public private(set) var events: [HostEvent] = []
    /// The `host.ready` events the host sent, in recorded order.
    public private(set) var readyEvents: [HostEvent] = []
    /// How many messages the journey sent in the recording.
    public private(set) var journeyMessageCount = 0
    /// The recorded host as it greeted: its name, version and environment, when the recording
    /// has a snapshot (untrusted).
    public private(set) var host: WireHostInfo?

    /// A book from exchanges and events made in code (tests, tools).
    public init(exchanges: [Exchange], events: [HostEvent], readyEvents: [HostEvent] = [], host: WireHostInfo? = nil) {
        self.exchanges = exchanges
        self.events = events
        self.readyEvents = readyEvents
        self.journeyMessageCount = exchanges.map(\.journeyMessage).max() ?? 0
        self.host = host
    }

    /// The book of a recording, its frames read in order as `open` reads them.
    public init(contents: Recording.Contents) {
        var state = LiveState()
        for frame in contents.frames { state.apply(frame, at: 0) }
        self.init(state: state)
    }

    /// The book of what an inspector's state holds (its log, oldest first).
    public init(state: LiveState) {
        host = state.host
        var journeyMessages = 0
        for (index, row) in state.log.enumerated() where row.kind == .message {
            guard let direction = row.direction, let type = row.type else { continue }
            switch (direction, type) {
            case (.received, _):
                // An inspector posing as the journey (inject, replay) is not the journey.
                guard row.origin != .inspector else { continue }
                journeyMessages += 1
                guard type == .request, let message = row.message else { continue }
                exchanges.append(Exchange(
                    index: exchanges.count, action: message.payload.action, data: message.payload.data,
                    journeyMessage: journeyMessages, recordedId: message.correlationId,
                    answer: Self.answer(toRequestAt: index, in: state.log)))
            case (.sent, .event):
                guard let message = row.message else { continue }
                let event = HostEvent(action: message.payload.action, data: message.payload.data, afterJourneyMessage: journeyMessages)
                if event.action == Self.readyEventName { readyEvents.append(event) } else { events.append(event) }
            case (.sent, _):
                continue
            }
        }
        journeyMessageCount = journeyMessages
    }

    /// The answer to the request in row `index`: its partner row, when that is a response.
    private static func answer(toRequestAt index: Int, in log: [LogEntry]) -> Answer? {
        guard let partner = log[index].partner, log.indices.contains(partner), log[partner].type == .response,
            let response = log[partner].message
        else { return nil }
        return Answer(
            status: response.payload.status, data: response.payload.data, error: response.payload.error,
            latencyMs: log[partner].latencyMs)
    }

    /// The actions the book can answer, sorted, each once.
    public var answeredActions: [String] {
        Array(Set(exchanges.filter { $0.answer != nil }.map(\.action))).sorted()
    }

    /// The actions the book holds requests for (answered or not), sorted, each once.
    public var actions: [String] {
        Array(Set(exchanges.map(\.action))).sorted()
    }

    /// The events due once the journey has sent `count` messages and before it sends the next:
    /// those placed after its `count`-th message (0: before any).
    public func events(afterJourneyMessage count: Int) -> [HostEvent] {
        events.filter { $0.afterJourneyMessage == count }
    }
}
