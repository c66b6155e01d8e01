import BridgeCore

/// One report of the page script (``OutgoingTapScript``), decoded from the body of a script
/// message to ``OutgoingTapScript/handlerName``.
///
/// The script posts each report as a string holding a JSON object (an envelope) with a `kind`:
///
/// | envelope | case |
/// | --- | --- |
/// | `{"kind":"sent","json":"<JSON.stringify(message)>"}` | ``sent(json:)`` |
/// | `{"kind":"sent","json":"...","lost":"<why>"}` | ``lost(json:reason:)`` |
/// | `{"kind":"page","url":"<location.href>"}` | ``page(url:)`` |
/// | `{"kind":"unreportable","reason":"..."}` | ``unreportable(reason:)`` |
/// | `{"kind":"blind","reason":"..."}` | ``blind(reason:)`` |
/// | `{"kind":"intercept","page":"...","id":"<n>","direction":"received\|sent","json":"..."}` | ``intercept(page:id:direction:json:)`` (``PageInterceptScript``) |
///
/// A dictionary body with the same keys (`[String: Any]`, as WebKit hands over a posted object)
/// is accepted too. Anything else is ``invalid(_:)``: any script in the web view can post to the
/// handler, so the body is untrusted; decoding never traps, and bodies over
/// ``maximumBodyBytes`` are refused before they are parsed. The texts (`json`, `url`, `reason`)
/// are the page's: make them safe before they reach a terminal.
///
/// ```swift
/// switch OutgoingTapReport(body: message.body) {
/// case .sent(let json): record(json)            // exactly what receive(...) got, as JSON text
/// case .lost(let json, let why): record(json, lost: why)
/// case .page(let url): journeyAttached(url)
/// case .unreportable, .blind, .invalid: show(it)
/// }
/// ```
public enum OutgoingTapReport: Sendable, Equatable {
    /// `window.GBGBridge.receive` was called; `json` is `JSON.stringify` of its first argument.
    case sent(json: String)
    /// `receive` was called, but the function called was GBGBridge's no-op bootstrap `receive`
    /// (`function(){}`): the journey had not set its own yet, so it never got the message. A
    /// `sent` envelope with a `lost` string; older Swift sides read it as ``sent(json:)``.
    case lost(json: String, reason: String)
    /// The script started on a page whose address is `url` (a journey page is attached).
    case page(url: String)
    /// `receive` was called with a value the script could not copy as JSON (see the reason).
    case unreportable(reason: String)
    /// The script cannot see deliveries to the object now in `window.GBGBridge` (see the reason).
    case blind(reason: String)
    /// A message waits in the page for the adapter's verdict while breakpoints may hold it
    /// (``PageInterceptScript``): message `id` of the page whose token is `page`, which the journey
    /// posted to `gbgBridge` (`received`) or GBGBridge delivered to the journey (`sent`).
    case intercept(page: String, id: Int, direction: TrafficRecord.Direction, json: String)
    /// The body is not a report; the text says why (for a counter or a log, never shown raw).
    case invalid(String)

    /// The envelope's `kind` values.
    public enum Kind: String, Sendable, CaseIterable {
        case sent, page, unreportable, blind, intercept
    }

    /// The envelope's keys.
    public enum Key {
        /// The kind of report (``Kind``).
        public static let kind = "kind"
        /// The message JSON of a `sent` report.
        public static let json = "json"
        /// The page address of a `page` report.
        public static let url = "url"
        /// The explanation of an `unreportable` or `blind` report.
        public static let reason = "reason"
        /// In an `intercept` report: the page's token, and the message's number in that page.
        public static let page = "page"
        public static let id = "id"
        /// In an `intercept` report: `received` (the journey posted it) or `sent` (GBGBridge delivered it).
        public static let direction = "direction"
        /// In a `sent` report: why the journey did not get the message (it reached the no-op
        /// bootstrap `receive`).
        public static let lost = "lost"
    }

    /// The largest body decoded, in UTF-8 bytes: room for the envelope of a message of
    /// ``OutgoingTapScript/maximumMessageLength`` units (each at most 3 bytes, or 2 escaped ones).
    public static let maximumBodyBytes = 3 * OutgoingTapScript.maximumMessageLength + 4096

    /// Decodes a script message body (a `String`, or a `[String: Any]` dictionary).
    public init(body: Any) {
        if let text = body as? String {
            self = Self(envelopeText: text)
        } else if let dictionary = body as? [String: Any] {
            var fields: [String: String] = [:]
            var bytes = 0
            for (key, value) in dictionary {
                guard let string = value as? String else { continue }
                bytes += key.utf8.count + string.utf8.count
                fields[key] = string
            }
            self = bytes > Self.maximumBodyBytes ? .invalid("a body over \(Self.maximumBodyBytes) bytes") : Self(fields: fields)
        } else {
            self = .invalid("a body that is neither a string nor a dictionary")
        }
    }

    /// Decodes the envelope text the script posts.
    init(envelopeText text: String) {
        guard text.utf8.count <= Self.maximumBodyBytes else {
            self = .invalid("a body over \(Self.maximumBodyBytes) bytes")
            return
        }
        // The envelope is one flat object: depth 1 refuses anything nested before it is built.
        guard let object = JSONParser.parse(Array(text.utf8), maxDepth: 1)?.objectValue else {
            self = .invalid("a body that is not a JSON object of strings")
            return
        }
        self = Self(fields: object.compactMapValues(\.stringValue))
    }

    private init(fields: [String: String]) {
        guard let kindText = fields[Key.kind] else {
            self = .invalid("no \"kind\" string")
            return
        }
        guard let kind = Kind(rawValue: kindText) else {
            self = .invalid("an unknown kind")
            return
        }
        let key: String
        switch kind {
        case .sent, .intercept: key = Key.json
        case .page: key = Key.url
        case .unreportable, .blind: key = Key.reason
        }
        guard let value = fields[key] else {
            self = .invalid("a \(kind.rawValue) report without a \"\(key)\" string")
            return
        }
        switch kind {
        case .sent: self = fields[Key.lost].map { .lost(json: value, reason: $0) } ?? .sent(json: value)
        case .page: self = .page(url: value)
        case .unreportable: self = .unreportable(reason: value)
        case .blind: self = .blind(reason: value)
        case .intercept:
            guard let page = fields[Key.page], let id = fields[Key.id].flatMap({ Int($0) }), id > 0 else {
                self = .invalid("an intercept report without a \"page\" and a positive \"id\"")
                return
            }
            let direction: TrafficRecord.Direction = fields[Key.direction] == "sent" ? .sent : .received
            self = .intercept(page: page, id: id, direction: direction, json: value)
        }
    }
}
