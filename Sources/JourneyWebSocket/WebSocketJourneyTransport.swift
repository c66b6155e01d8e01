import BridgeCore
import Foundation
import NIOCore
import NIOWebSocket
import ThreadSupport

/// One page context in a browser: a top-level document that loaded the bridge bootstrap and
/// connected. A reload or a navigation makes a new one.
public struct WebPage: Sendable, Hashable, CustomStringConvertible {
    /// The page's number, counted from 1 in the order pages connected.
    public let id: Int
    /// The page's origin, as its browser sent it (printable ASCII, at most 200 characters).
    public let origin: String
    /// The page's path, as its bootstrap reported it (printable ASCII, at most 200 characters).
    public let path: String

    /// Creates a page description.
    public init(id: Int, origin: String, path: String) {
        self.id = id
        self.origin = origin
        self.path = path
    }

    /// `page 2 (/index.html)`.
    public var description: String { "page \(id) (\(path))" }
}

/// The error a page reported when it ran a delivery: what `evaluateJavaScript` reports on iOS
/// when the evaluated script throws.
public struct PageScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The page's error text, such as `TypeError: x is not a function` (printable ASCII, at most 200 characters).
    public let message: String
    /// The page that reported it.
    public let page: Int

    /// Creates an error.
    public init(message: String, page: Int) {
        self.message = message
        self.page = page
    }

    /// `TypeError: x is not a function (in page 2)`: how it reads in `lastError`.
    public var description: String { "\(message) (in page \(page))" }
}

/// The ``JourneyTransport`` for a journey in a browser: one WebSocket to one page context.
///
/// Each delivery goes to the page as the exact script a WKWebView would evaluate,
/// `window.GBGBridge.receive(<json>);`, and the page's bootstrap makes that call (see
/// ``BrowserBootstrap``). Messages the page posts reach ``BridgeHost/receive(_:)`` in order.
/// A ``WebJourneyServer`` makes one for every page that connects, attaches it to the host, and
/// detaches it when the page goes (a reload, a navigation, a closed tab); deliveries then fail
/// with `WebView not attached`, as on iOS.
@MainActor
public final class WebSocketJourneyTransport: JourneyTransport {
    /// The page this transport reaches.
    public let page: WebPage
    /// Whether the page's connection is still open.
    public private(set) var isOpen = true
    /// How many deliveries were handed to the page's connection.
    public private(set) var deliveryCount = 0

    /// The correlation ids of the requests this page sent, oldest first (at most 4,096).
    public private(set) var sentRequestIds: [String] = []

    private weak var host: BridgeHost?
    private let channel: any Channel
    private let pendingBytes = Locked(0)
    private let maximumPendingBytes: Int
    private var recentDeliveries: [Int: JourneyDelivery] = [:]
    private let codec = BridgeMessageCodec()

    /// Deliveries remembered to match a page's `evaluateFailed` report with its message.
    static let rememberedDeliveries = 256
    /// Request ids remembered per page.
    static let rememberedRequests = 4096

    init(page: WebPage, channel: any Channel, host: BridgeHost, maximumPendingBytes: Int) {
        self.page = page
        self.channel = channel
        self.host = host
        self.maximumPendingBytes = maximumPendingBytes
    }

    /// Sends one delivery to the page. Throws when the page's connection is closed or the page has
    /// stopped reading; a write that fails later is reported with
    /// ``BridgeHost/journeyDeliveryFailed(_:error:)``.
    public func deliver(_ delivery: JourneyDelivery) throws {
        guard isOpen else { throw WebJourneyError.pageClosed(page: page.id) }
        let script = delivery.javaScript
        let size = script.utf8.count
        let waiting = pendingBytes.withLock { $0 }
        guard waiting + size <= maximumPendingBytes else {
            throw WebJourneyError.pageNotReading(page: page.id, pendingBytes: waiting)
        }
        pendingBytes.withLock { $0 += size }
        deliveryCount += 1
        recentDeliveries[deliveryCount] = delivery
        recentDeliveries[deliveryCount - Self.rememberedDeliveries] = nil
        let frame = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: script))
        let pageId = page.id
        channel.writeAndFlush(frame).whenComplete { [pendingBytes, weak host] result in
            pendingBytes.withLock { $0 -= size }
            if case .failure = result {
                Task { @MainActor in host?.journeyDeliveryFailed(delivery, error: WebJourneyError.pageClosed(page: pageId)) }
            }
        }
    }

    /// Makes the page post `text` as the journey would: sends the control frame of
    /// ``postControlFrame(text:asObject:)``, and the page's bootstrap calls its own
    /// `window.webkit.messageHandlers.gbgBridge.postMessage` with `text` (parsed first when
    /// `asObject`), so the message comes back as a post of the page, by the path the journey's
    /// own posts take. It is not a delivery: ``deliveryCount`` and the page's numbering of
    /// deliveries stay as they are.
    ///
    /// Throws when the page's connection is closed or the page has stopped reading (the same
    /// bound as ``deliver(_:)``). A write that fails later is not reported: the page went, and
    /// the server tells that on its own.
    public func post(asJourney text: String, asObject: Bool) throws(WebJourneyError) {
        try writeControlFrame(Self.postControlFrame(text: text, asObject: asObject))
    }

    /// Calls the page's holding script (``PageReportChannel/holdingEntryPoint``): `function` is
    /// `set` or `decide`, `arguments` the text of a JSON array (the caller's, made by an encoder).
    public func callHolder(_ function: String, arguments: String) throws(WebJourneyError) {
        try writeControlFrame(#"{"kind":"intercept","call":"# + Self.jsonStringLiteral(function) + #","args":"# + arguments + "}")
    }

    /// Makes the page load again (`location.reload()`, a lifecycle step): its bridge context ends,
    /// this connection closes, and the reloaded page connects and attaches as a new page.
    public func reloadPage() throws(WebJourneyError) {
        try writeControlFrame(#"{"kind":"reload"}"#)
    }

    /// Writes a control frame, bounded like deliveries; it is no delivery (their count stays).
    private func writeControlFrame(_ frameText: String) throws(WebJourneyError) {
        guard isOpen else { throw .pageClosed(page: page.id) }
        let size = frameText.utf8.count
        let waiting = pendingBytes.withLock { $0 }
        guard waiting + size <= maximumPendingBytes else {
            throw .pageNotReading(page: page.id, pendingBytes: waiting)
        }
        pendingBytes.withLock { $0 += size }
        let frame = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: frameText))
        channel.writeAndFlush(frame).whenComplete { [pendingBytes] _ in
            pendingBytes.withLock { $0 -= size }
        }
    }

    /// The host-to-page control frame that makes the page post `text` through its own
    /// `gbgBridge.postMessage`: `{"kind":"post","text":"<text>","object":true|false}`, in that
    /// order. A control frame starts with `{`, a delivery with `window.GBGBridge.receive(`, which
    /// is how the bootstrap tells them apart (see ``BrowserBootstrap``).
    nonisolated static func postControlFrame(text: String, asObject: Bool) -> String {
        #"{"kind":"post","text":"# + jsonStringLiteral(text) + #","object":"# + (asObject ? "true" : "false") + "}"
    }

    /// `text` as a JSON string literal: `"` and `\` escaped, and every control character as
    /// `\n`, `\t` and the like or `\u00XX`; everything else as it is (a Swift string holds no
    /// lone surrogate, so the result is always valid JSON).
    nonisolated static func jsonStringLiteral(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Hands a message the page posted to the host.
    func received(_ data: Data) {
        guard let host else { return }
        if case .success(let message) = codec.decode(data), message.type == .request {
            sentRequestIds.append(message.correlationId)
            if sentRequestIds.count > Self.rememberedRequests { sentRequestIds.removeFirst() }
        }
        host.receive(data)
    }

    /// Reports that the page could not run delivery `seq`; `false` when no such delivery is remembered.
    func evaluationFailed(seq: Int, error: String) -> Bool {
        guard let host, let delivery = recentDeliveries[seq] else { return false }
        host.journeyDeliveryFailed(delivery, error: PageScriptError(message: RequestPolicy.printable(error), page: page.id))
        return true
    }

    /// Sends a close frame; the connection closes once the page answers (or after a second).
    func close(code: WebSocketErrorCode, reason: String) {
        guard isOpen else { return }
        isOpen = false
        channel.writeAndFlush(WebSocketPageHandler.closeFrame(code: code, reason: reason, allocator: channel.allocator), promise: nil)
    }

    /// Marks the connection closed (the page went).
    func markClosed() {
        isOpen = false
    }

    /// The requests this page sent that are still waiting in the host's `pendingRequests`.
    func stillPending() -> [BridgeMessage] {
        guard let host else { return [] }
        let mine = Set(sentRequestIds)
        return host.pendingRequests.filter { mine.contains($0.correlationId) }
    }
}
