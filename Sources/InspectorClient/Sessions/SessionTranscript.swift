import BridgeCore
import Foundation
import InspectorProtocol

/// A session read as *what happened*, not as log rows: the journey's requests each with the
/// host's answer, requests never answered, events either way and malformed input, in order.
///
/// It is what ``SessionDiff`` compares. Correlation ids are kept only to pair a request with its
/// answer (and to show them): two runs of the same journey give the same transcript although
/// every id and timestamp differs.
///
/// ```swift
/// let left = SessionTranscript(contents: Recording.load(from: URL(fileURLWithPath: "build-41.jsonl")), name: "build-41.jsonl")
/// let right = SessionTranscript(log: state.log, host: state.host, name: "host demo")
/// let diff = SessionDiff(left: left, right: right)
/// ```
///
/// Messages an inspector made (``MessageOrigin/inspector``: a response typed in the TUI, an
/// injected message, an answer from a reply rule) are not the app's behaviour and are left out
/// unless `includeInspectorMade` is set, and so is the host's answer to a request an inspector
/// injected or replayed; ``inspectorMadeLeftOut`` counts them so a report can say so. Markers (gaps, disconnections) are not items.
public struct SessionTranscript: Sendable {
    /// What the session is called in a report: a file name, or `host NAME`. Untrusted when it
    /// comes from a host: make it safe before it reaches a terminal.
    public var name: String
    /// The host's name as it greeted the inspector, if known (untrusted).
    public var hostName: String?
    /// What happened, in order.
    public var items: [Item]
    /// The number of messages (and malformed inputs) the items hold: a request and its answer
    /// count as two.
    public var messageCount: Int
    /// When the first and the last included message crossed the bridge (milliseconds since
    /// 1970), or `nil` for an empty transcript.
    public var timeSpan: ClosedRange<Double>?
    /// How many messages an inspector made were left out (0 when they were included).
    public var inspectorMadeLeftOut: Int
    /// Whether inspector-made messages are among the items.
    public var includesInspectorMade: Bool

    /// One thing that happened.
    public struct Item: Sendable, Hashable {
        /// What kind of thing happened.
        public enum Kind: String, Sendable, Codable, Hashable {
            /// A request (normally from the journey), with its ``answer`` or pending.
            case request
            /// An event, from the journey (``TrafficRecord/Direction/received``) or the host.
            case event
            /// A response whose request is not in the log (a log that starts mid-session);
            /// its content is in ``answer``.
            case answer
            /// Input that could not be read as a message; ``action`` holds the reason.
            case malformed
        }

        /// What kind of thing happened.
        public var kind: Kind
        /// Which way it went: `received` from the journey, `sent` by the host.
        public var direction: TrafficRecord.Direction
        /// `payload.action`, or for malformed input the reason it could not be read.
        public var action: String
        /// The agent's sequence number of the message (the request's, for a request).
        public var seq: Int
        /// When it crossed the bridge, in milliseconds since 1970.
        public var time: Double
        /// The message's correlation id: shown, and used only to pair a request with its answer.
        public var correlationId: String
        /// The message's protocol `version`, if it had one.
        public var version: String?
        /// `payload.data` as an object, or `nil` when the message had none.
        public var data: JSONValue?
        /// For a request: the host's answer, or `nil` while it is pending. For an
        /// ``Kind/answer`` item: the response itself.
        public var answer: Answer?
        /// Who made the message.
        public var origin: MessageOrigin?

        /// Creates an item.
        public init(
            kind: Kind, direction: TrafficRecord.Direction, action: String, seq: Int = 0, time: Double = 0, correlationId: String = "",
            version: String? = "1.0", data: JSONValue? = nil, answer: Answer? = nil, origin: MessageOrigin? = nil
        ) {
            self.kind = kind
            self.direction = direction
            self.action = action
            self.seq = seq
            self.time = time
            self.correlationId = correlationId
            self.version = version
            self.data = data
            self.answer = answer
            self.origin = origin
        }

        /// A request nobody answered (yet).
        public var isPending: Bool { kind == .request && answer == nil }

        /// What the alignment compares: direction, kind and action (not ids, times or data).
        public var alignmentKey: String { "\(direction.rawValue) \(kind.rawValue) \(action)" }
    }

    /// The host's answer to a request.
    public struct Answer: Sendable, Hashable {
        /// The response's sequence number.
        public var seq: Int
        /// When it was sent, in milliseconds since 1970.
        public var time: Double
        /// Its correlation id.
        public var correlationId: String
        /// Its protocol `version`.
        public var version: String?
        /// `payload.status`.
        public var status: BridgeResponseStatus?
        /// `payload.error`.
        public var error: BridgeErrorPayload?
        /// `payload.data` as an object, or `nil`.
        public var data: JSONValue?
        /// How long the host took, in milliseconds, as the log measured it (held time left out).
        public var latencyMs: Double?
        /// Who made it.
        public var origin: MessageOrigin?

        /// Creates an answer.
        public init(
            seq: Int = 0, time: Double = 0, correlationId: String = "", version: String? = "1.0", status: BridgeResponseStatus?,
            error: BridgeErrorPayload? = nil, data: JSONValue? = nil, latencyMs: Double? = nil, origin: MessageOrigin? = nil
        ) {
            self.seq = seq
            self.time = time
            self.correlationId = correlationId
            self.version = version
            self.status = status
            self.error = error
            self.data = data
            self.latencyMs = latencyMs
            self.origin = origin
        }
    }

    /// A transcript of made-up or already-built items (tests, another reader).
    public init(name: String, hostName: String? = nil, items: [Item], inspectorMadeLeftOut: Int = 0, includesInspectorMade: Bool = false) {
        self.name = name
        self.hostName = hostName
        self.items = items
        self.inspectorMadeLeftOut = inspectorMadeLeftOut
        self.includesInspectorMade = includesInspectorMade
        var count = 0
        var first = Double.infinity
        var last = -Double.infinity
        for item in items {
            count += 1
            first = min(first, item.time)
            last = max(last, item.time)
            if item.kind == .request, let answer = item.answer {
                count += 1
                last = max(last, answer.time)
            }
        }
        messageCount = count
        timeSpan = first <= last ? first...last : nil
    }

    /// The transcript of a log (``LiveState/log``): a recording's or a running host's.
    public init(log: [LogEntry], host: WireHostInfo? = nil, name: String, includeInspectorMade: Bool = false) {
        var items: [Item] = []
        items.reserveCapacity(log.count)
        var leftOut = 0
        // Requests not answered yet, by correlation id: only to pair, never to align.
        var open: [String: Int] = [:]
        // Requests an inspector made (injected, replayed) that are not answered yet: the host's
        // answer to one is the person's doing too, and is left out with it.
        var openLeftOut: Set<String> = []
        for entry in log {
            switch entry.kind {
            case .message:
                if !includeInspectorMade {
                    if entry.origin == .inspector {
                        if entry.type == .request { openLeftOut.insert(entry.correlationId) }
                        leftOut += 1
                        continue
                    }
                    if entry.type == .response, open[entry.correlationId] == nil, openLeftOut.remove(entry.correlationId) != nil {
                        leftOut += 1
                        continue
                    }
                }
                guard let direction = entry.direction else { continue }
                let message = entry.message
                let payload = message?.payload
                let data = payload?.data.map(JSONValue.object)
                switch entry.type {
                case .request?:
                    open[entry.correlationId] = items.count
                    items.append(Item(
                        kind: .request, direction: direction, action: entry.summary, seq: entry.seq, time: entry.time,
                        correlationId: entry.correlationId, version: message?.version, data: data, origin: entry.origin))
                case .response?:
                    let answer = Answer(
                        seq: entry.seq, time: entry.time, correlationId: entry.correlationId, version: message?.version,
                        status: entry.status, error: payload?.error, data: data, latencyMs: entry.latencyMs, origin: entry.origin)
                    if let index = open.removeValue(forKey: entry.correlationId) {
                        items[index].answer = answer
                    } else {
                        items.append(Item(
                            kind: .answer, direction: direction, action: entry.summary, seq: entry.seq, time: entry.time,
                            correlationId: entry.correlationId, version: message?.version, answer: answer, origin: entry.origin))
                    }
                case .event?:
                    items.append(Item(
                        kind: .event, direction: direction, action: entry.summary, seq: entry.seq, time: entry.time,
                        correlationId: entry.correlationId, version: message?.version, data: data, origin: entry.origin))
                case nil:
                    continue
                }
            case .malformed:
                if entry.origin == .inspector && !includeInspectorMade {
                    leftOut += 1
                    continue
                }
                items.append(Item(
                    kind: .malformed, direction: entry.direction ?? .received, action: entry.summary, seq: entry.seq, time: entry.time,
                    correlationId: entry.malformedCorrelationId ?? "", version: nil, origin: entry.origin))
            case .gap, .disconnected, .reattached, .hostRestarted:
                continue
            }
        }
        self.init(name: name, hostName: host?.name, items: items, inspectorMadeLeftOut: leftOut, includesInspectorMade: includeInspectorMade)
    }

    /// The transcript of a recording's readable frames (``Recording/load(from:)``); a recording
    /// cut off is read up to where it broke (``Recording/Contents/problem`` says where).
    public init(contents: Recording.Contents, name: String, includeInspectorMade: Bool = false) {
        var state = LiveState()
        for frame in contents.frames { state.apply(frame, at: 0) }
        self.init(log: state.log, host: state.host, name: name, includeInspectorMade: includeInspectorMade)
    }
}
