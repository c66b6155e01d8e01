import BridgeCore
import Foundation
import InspectorProtocol

/// Turns an inspector's message log into HAR 1.2 JSON ("HTTP Archive"), which browser dev
/// tools, Charles, Proxyman, Fiddler and HAR viewers open: `bridge-inspector export --har`.
///
/// The bridge is not HTTP, so each message is mapped onto HAR's shape as follows (also in
/// docs/cli.md, "export"):
///
/// - **A request from the journey and the host's response** (threaded by correlation id) make
///   one entry: `request` is the journey's message, `response` the host's; `startedDateTime` is
///   when the request arrived, `time` and `timings.wait` the milliseconds until the response
///   was sent (`send` and `receive` are 0: a bridge message has no transfer time of its own).
/// - **A request never answered** in the log: `response.status` 0 and `statusText`
///   "no response", `time` 0, as browsers export a request that got no answer.
/// - **An event** (either way) is an entry of its own whose `response` is empty: status 204
///   "event (no response expected)", `time` 0.
/// - **A response whose request is not in the log** (it was evicted or came before the
///   recording): the request side is empty (`method` "POST", no `postData`), and the comment says so.
/// - **Malformed input** from the journey: an entry whose request carries the raw text, and
///   status 0 with the reason as `statusText`.
/// - Markers (gaps, reconnections) are not entries; the log's `comment` says how many gaps there were.
///
/// `request.url` is `gbgbridge://host/<action>` for what the journey sends (the host serves it)
/// and `gbgbridge://journey/<action>` for what the host sends, the action percent-encoded;
/// `method` is "POST" (every message carries a body); `httpVersion` is "GBGBridge". The message
/// is the body, exactly as it crossed the bridge: `request.postData.text` and
/// `response.content.text`, with `mimeType` "application/json" (malformed input: "text/plain").
/// A bridge status maps to an HTTP-like status so tools can colour it: success 200, error 500
/// (`statusText` carries the error code, e.g. "error BUSY"), cancelled 499, unsupported 501.
/// Details HAR has no field for are under `_bridge` (HAR's rule: custom fields start with `_`):
/// `correlationId`, `type`, `direction`, `origin`, each side's `seq`, `answeredByRule`, and
/// `deliveryError` when a sent message was not delivered.
///
/// Every piece of untrusted text (actions, ids, message bodies) is written as a JSON string by
/// ``JSONWriter``, which escapes quotes, backslashes and control characters: no message can break
/// the archive's JSON.
///
/// ```swift
/// var state = LiveState()
/// for frame in Recording.load(from: url).frames { state.apply(frame) }
/// let har = HARExport(log: state.log, host: state.host).json()
/// ```
public struct HARExport: Sendable {
    /// The rows to export, in log order.
    public var log: [LogEntry]
    /// The host the rows came from, named in the archive's comment.
    public var host: WireHostInfo?
    /// The program named in `log.creator`.
    public var creatorName = "bridge-inspector"
    /// Its version.
    public var creatorVersion = WireProtocol.toolVersion

    /// Exports `log`, from `host`.
    public init(log: [LogEntry], host: WireHostInfo?) {
        self.log = log
        self.host = host
    }

    /// The status an entry's response gets for each bridge status.
    public static func httpStatus(_ status: BridgeResponseStatus?) -> Int {
        switch status {
        case .success?: return 200
        case .error?: return 500
        case .cancelled?: return 499
        case .unsupported?: return 501
        case nil: return 200
        }
    }

    /// How many entries the export has.
    public var entryCount: Int { plan().count }

    /// The archive, as compact JSON.
    public func json() -> Data {
        var writer = JSONWriter(capacity: log.reduce(1024) { $0 + $1.json.count * 2 + 600 })
        writer.objectStart()
        writer.key("log")
        writer.objectStart()
        writer.key("version"); writer.string("1.2")
        writer.key("creator")
        writer.objectStart()
        writer.key("name"); writer.string(creatorName)
        writer.key("version"); writer.string(creatorVersion)
        writer.objectEnd()
        writer.key("comment"); writer.string(comment)
        writer.key("entries")
        writer.arrayStart()
        let formatter = Self.dateFormatter()
        for item in plan() { write(item, dates: formatter, into: &writer) }
        writer.arrayEnd()
        writer.objectEnd()
        writer.objectEnd()
        return writer.data
    }

    // MARK: Planning

    /// One entry: the row it starts from and, for a request, the row that answered it.
    enum Item {
        case exchange(request: Int, response: Int?)
        case orphanResponse(Int)
        case event(Int)
        case malformed(Int)
    }

    /// The entries, in the order their first message crossed the bridge.
    func plan() -> [Item] {
        var items: [Item] = []
        for (index, entry) in log.enumerated() {
            switch entry.kind {
            case .malformed:
                items.append(.malformed(index))
            case .message:
                switch entry.type {
                case .request?:
                    let response = entry.partner.flatMap { log.indices.contains($0) && log[$0].type == .response ? $0 : nil }
                    items.append(.exchange(request: index, response: response))
                case .response?:
                    let answered = entry.partner.map { log.indices.contains($0) && log[$0].type == .request } ?? false
                    if !answered { items.append(.orphanResponse(index)) }
                case .event?, nil:
                    items.append(.event(index))
                }
            default:
                continue
            }
        }
        return items
    }

    var comment: String {
        var text = "GBGBridge messages"
        if let host { text += " of host \(host.name) (pid \(host.pid), version \(host.hostVersion), \(host.environment))" }
        text += ", exported by bridge-inspector: one entry per request and its response (by correlation id), per event, per unanswered request and per malformed input; the message is the body, exactly as it crossed the bridge."
        let gaps = log.filter { if case .gap = $0.kind { return true } else { return false } }.count
        if gaps > 0 { text += " \(gaps) gap\(gaps == 1 ? "" : "s") in the log: some messages were missed." }
        return text
    }

    // MARK: Writing

    private func write(_ item: Item, dates: ISO8601DateFormatter, into writer: inout JSONWriter) {
        func entry(
            _ start: Double, _ wait: Double, _ comment: String?, request: (inout JSONWriter) -> Void, response: (inout JSONWriter) -> Void,
            bridge: (inout JSONWriter) -> Void
        ) {
            Self.entry(
                into: &writer, start: dates.string(from: Date(timeIntervalSince1970: start / 1000)), wait: wait, comment: comment,
                request: request, response: response, bridge: bridge)
        }
        switch item {
        case .exchange(let requestIndex, let responseIndex):
            let request = log[requestIndex]
            let response = responseIndex.map { log[$0] }
            // The whole wait, held at breakpoints included (latencyMs leaves that out).
            let wait = response.map { answer in answer.latencyMs.map { $0 + (answer.heldMs ?? 0) } ?? max(0, answer.time - request.time) } ?? 0
            entry(
                request.time, wait, response == nil ? "no response in the log" : nil,
                request: { requestSide(request, into: &$0) },
                response: { writer in
                    if let response {
                        responseSide(response, into: &writer)
                    } else {
                        emptyResponse(status: 0, text: "no response", into: &writer)
                    }
                },
                bridge: { bridgeFields(request, partner: response, into: &$0) })
        case .orphanResponse(let index):
            let response = log[index]
            entry(
                response.time, 0, "the request is not in the log (evicted, or before the recording began)",
                request: { writer in
                    writer.objectStart()
                    writer.key("method"); writer.string("POST")
                    writer.key("url"); writer.string(Self.url(for: response.summary, sentByHost: false))
                    requestTail(bodySize: 0, into: &writer)
                    writer.objectEnd()
                },
                response: { responseSide(response, into: &$0) },
                bridge: { bridgeFields(response, partner: nil, into: &$0) })
        case .event(let index):
            let event = log[index]
            entry(
                event.time, 0, nil,
                request: { requestSide(event, into: &$0) },
                response: { emptyResponse(status: 204, text: "event (no response expected)", into: &$0) },
                bridge: { bridgeFields(event, partner: nil, into: &$0) })
        case .malformed(let index):
            let input = log[index]
            entry(
                input.time, 0, "malformed input: " + input.summary,
                request: { requestSide(input, into: &$0) },
                response: { emptyResponse(status: 0, text: "malformed: " + input.summary, into: &$0) },
                bridge: { bridgeFields(input, partner: nil, into: &$0) })
        }
    }

    private static func entry(
        into writer: inout JSONWriter, start: String, wait: Double, comment: String?,
        request: (inout JSONWriter) -> Void, response: (inout JSONWriter) -> Void, bridge: (inout JSONWriter) -> Void
    ) {
        writer.objectStart()
        writer.key("startedDateTime"); writer.string(start)
        writer.key("time"); writer.number(wait)
        writer.key("request"); request(&writer)
        writer.key("response"); response(&writer)
        writer.key("cache"); writer.objectStart(); writer.objectEnd()
        writer.key("timings")
        writer.objectStart()
        writer.key("blocked"); writer.number(-1)
        writer.key("dns"); writer.number(-1)
        writer.key("connect"); writer.number(-1)
        writer.key("send"); writer.number(0)
        writer.key("wait"); writer.number(wait)
        writer.key("receive"); writer.number(0)
        writer.key("ssl"); writer.number(-1)
        writer.objectEnd()
        if let comment { writer.key("comment"); writer.string(comment) }
        writer.key("_bridge"); bridge(&writer)
        writer.objectEnd()
    }

    private func requestSide(_ row: LogEntry, into writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("method"); writer.string("POST")
        writer.key("url"); writer.string(Self.url(for: row.kind == .malformed ? "malformed" : row.summary, sentByHost: row.direction == .sent))
        writer.key("postData")
        writer.objectStart()
        writer.key("mimeType"); writer.string(row.kind == .malformed ? "text/plain" : "application/json")
        writer.key("text"); writer.string(String(decoding: row.json, as: UTF8.self))
        writer.objectEnd()
        requestTail(bodySize: row.bytes, into: &writer)
        writer.objectEnd()
    }

    private func requestTail(bodySize: Int, into writer: inout JSONWriter) {
        writer.key("httpVersion"); writer.string("GBGBridge")
        writer.key("cookies"); writer.arrayStart(); writer.arrayEnd()
        writer.key("headers"); writer.arrayStart(); writer.arrayEnd()
        writer.key("queryString"); writer.arrayStart(); writer.arrayEnd()
        writer.key("headersSize"); writer.number(-1)
        writer.key("bodySize"); writer.number(bodySize)
    }

    private func responseSide(_ row: LogEntry, into writer: inout JSONWriter) {
        var statusText = row.status?.rawValue ?? "response"
        if let code = row.errorCode { statusText += " " + code }
        Self.response(status: Self.httpStatus(row.status), text: statusText, body: row.json, size: row.bytes, into: &writer)
    }

    private func emptyResponse(status: Int, text: String, into writer: inout JSONWriter) {
        Self.response(status: status, text: text, body: nil, size: 0, into: &writer)
    }

    /// A HAR response object; `body` is the message's JSON (`nil`: no content text).
    private static func response(status: Int, text: String, body: Data?, size: Int, into writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("status"); writer.number(status)
        writer.key("statusText"); writer.string(text)
        writer.key("httpVersion"); writer.string("GBGBridge")
        writer.key("cookies"); writer.arrayStart(); writer.arrayEnd()
        writer.key("headers"); writer.arrayStart(); writer.arrayEnd()
        writer.key("content")
        writer.objectStart()
        writer.key("size"); writer.number(size)
        writer.key("mimeType"); writer.string("application/json")
        if let body { writer.key("text"); writer.string(String(decoding: body, as: UTF8.self)) }
        writer.objectEnd()
        writer.key("redirectURL"); writer.string("")
        writer.key("headersSize"); writer.number(-1)
        writer.key("bodySize"); writer.number(size)
        writer.objectEnd()
    }

    private func bridgeFields(_ row: LogEntry, partner: LogEntry?, into writer: inout JSONWriter) {
        writer.objectStart()
        if row.kind == .malformed {
            writer.key("type"); writer.string("malformed")
            writer.key("reason"); writer.string(row.summary)
            if let id = row.malformedCorrelationId { writer.key("correlationId"); writer.string(id) }
        } else {
            writer.key("correlationId"); writer.string(row.correlationId)
            writer.key("type"); writer.string(row.type?.rawValue ?? "")
        }
        writer.key("direction"); writer.string(row.direction?.rawValue ?? "received")
        writer.key("origin"); writer.string(row.origin?.rawValue ?? "journey")
        writer.key("seq"); writer.number(row.seq)
        if let partner {
            writer.key("responseSeq"); writer.number(partner.seq)
            writer.key("responseOrigin"); writer.string(partner.origin?.rawValue ?? "host")
            writer.key("answeredByRule"); writer.bool(partner.answeredByRule)
        } else if row.type == .response {
            writer.key("answeredByRule"); writer.bool(row.answeredByRule)
        }
        if let error = partner?.deliveryError ?? row.deliveryError { writer.key("deliveryError"); writer.string(error) }
        writer.objectEnd()
    }

    // MARK: Formats

    /// `gbgbridge://host/<action>` (what the journey sends) or `gbgbridge://journey/<action>`.
    static func url(for action: String, sentByHost: Bool) -> String {
        // ASCII letters and digits and RFC 3986's unreserved marks; everything else is %-encoded.
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let path = action.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return "gbgbridge://" + (sentByHost ? "journey" : "host") + "/" + path
    }

    /// ISO 8601 in UTC with milliseconds, as HAR's `startedDateTime` wants.
    static func dateFormatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter
    }
}
