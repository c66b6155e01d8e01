import BridgeCore
import FilterLanguage
import Foundation
import InspectorProtocol

/// A reply rule: "answer the next N (or every) request for action X with this response,
/// optionally after a delay".
///
/// Rules are kept in a ``ReplyRuleBook``, which matches pending requests against them, counts
/// their hits and gives them ids and default names. A rule answers through the ordinary
/// `respond` command (``command(answering:)``), which carries the rule's name so the agent marks
/// the response as answered by a rule.
///
/// In a rules file a rule is one flat JSON object (see docs/cli.md, "Reply rules"):
///
/// ```json
/// {"name": "nfc-ok", "action": "nfc.read", "times": 2, "delayMs": 200,
///  "status": "success", "data": {"uid": "04A2"}}
/// ```
///
/// Only `action` is required; `status` defaults to `success`; leaving `times` out means every
/// request. Unknown fields are refused, so a typo never silently changes what a rule does.
public struct ReplyRule: Sendable, Hashable, Identifiable {
    /// What a rule answers with: the `status`, `data` and `error` of the response.
    public struct Response: Codable, Sendable, Hashable {
        /// The response status.
        public var status: BridgeResponseStatus
        /// Optional response data.
        public var data: [String: JSONValue]?
        /// Optional error object.
        public var error: BridgeErrorPayload?

        /// Creates a response.
        public init(status: BridgeResponseStatus = .success, data: [String: JSONValue]? = nil, error: BridgeErrorPayload? = nil) {
            self.status = status
            self.data = data
            self.error = error
        }
    }

    /// The rule's number in its book (1, 2, …); 0 until the rule is added to a book.
    public var id: Int
    /// The rule's name; empty until added to a book, which then names it `<action>#<id>`.
    public var name: String
    /// The action it answers: exact (`nfc.read`), or with `*` matching any run of characters
    /// (`camera.*`), as in the filter language's `action:`.
    public var action: String
    /// How many requests it answers in all; `nil` for every request.
    public var times: Int?
    /// Milliseconds to wait before answering.
    public var delayMs: Int
    /// The response it sends.
    public var response: Response
    /// How many requests it has answered.
    public var hits: Int
    /// Whether it answers at all (a disabled rule keeps its counts).
    public var isEnabled: Bool

    /// The longest delay a rule may have: one hour.
    public static let maxDelayMs = 3_600_000

    /// Creates a rule (not yet in a book: `id` 0, and an empty `name` is filled in by the book).
    public init(
        name: String = "", action: String, times: Int? = nil, delayMs: Int = 0, response: Response, hits: Int = 0,
        isEnabled: Bool = true, id: Int = 0
    ) {
        self.id = id
        self.name = name
        self.action = action
        self.times = times
        self.delayMs = delayMs
        self.response = response
        self.hits = hits
        self.isEnabled = isEnabled
    }

    /// How many more requests it will answer; `nil` for every request.
    public var remaining: Int? { times.map { max(0, $0 - hits) } }

    /// Whether it has answered all the requests it was meant to (never for an every-request rule).
    public var isUsedUp: Bool { remaining == 0 }

    /// Whether it would answer a matching request now.
    public var isActive: Bool { isEnabled && !isUsedUp }

    /// Whether it is meant for requests with this action (regardless of its counts).
    public func matches(action requestAction: String) -> Bool {
        ActionPattern.matches(action, requestAction)
    }

    /// The `respond` command that answers the request `correlationId` with this rule's response,
    /// naming the rule so the response is marked as answered by it. This is the one place where
    /// a rule's response becomes a command.
    public func command(answering correlationId: String) -> InspectorCommand.Respond {
        InspectorCommand.Respond(
            correlationId: correlationId, status: response.status, data: response.data, error: response.error, rule: name)
    }

    /// What is wrong with the rule, or `nil` when it can be used.
    public var problem: String? {
        if action.isEmpty { return "the action must not be empty" }
        if let times, times < 1 { return "times must be at least 1 (leave it out to answer every request)" }
        if !(0...Self.maxDelayMs).contains(delayMs) { return "delayMs must be from 0 to \(Self.maxDelayMs)" }
        if hits < 0 { return "hits must not be negative" }
        return nil
    }
}

extension ReplyRule: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, action, times, delayMs, enabled, status, data, error, hits
    }

    public init(from decoder: any Decoder) throws {
        try RuleKeys.refuseUnknown(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(Int.self, forKey: .id) ?? 0
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        action = try container.decode(String.self, forKey: .action)
        times = try container.decodeIfPresent(Int.self, forKey: .times)
        delayMs = try container.decodeIfPresent(Int.self, forKey: .delayMs) ?? 0
        isEnabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
        hits = try container.decodeIfPresent(Int.self, forKey: .hits) ?? 0
        var response = Response()
        if let raw = try container.decodeIfPresent(String.self, forKey: .status) {
            guard let status = BridgeResponseStatus(rawValue: raw) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .status, in: container,
                    debugDescription: "status must be \"success\", \"error\", \"cancelled\" or \"unsupported\" (got \"\(raw)\")")
            }
            response.status = status
        }
        response.data = try container.decodeIfPresent([String: JSONValue].self, forKey: .data)
        response.error = try container.decodeIfPresent(RuleError.self, forKey: .error)?.payload
        self.response = response
        if let problem {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: problem))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(action, forKey: .action)
        try container.encodeIfPresent(times, forKey: .times)
        try container.encode(delayMs, forKey: .delayMs)
        try container.encode(isEnabled, forKey: .enabled)
        try container.encode(response.status, forKey: .status)
        try container.encodeIfPresent(response.data, forKey: .data)
        try container.encodeIfPresent(response.error, forKey: .error)
        try container.encode(hits, forKey: .hits)
    }

    /// An error object in a rules file: `code` is required; `message` and `recoverable` default
    /// to what the web SDK expects for a known code (as in host profiles).
    private struct RuleError: Decodable {
        var payload: BridgeErrorPayload

        enum CodingKeys: String, CodingKey, CaseIterable { case code, message, recoverable }

        init(from decoder: any Decoder) throws {
            try RuleKeys.refuseUnknown(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let code = try container.decode(String.self, forKey: .code)
            guard !code.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: .code, in: container, debugDescription: "the error code must not be empty")
            }
            let known = BridgeErrorCode(rawValue: code)
            let message = try container.decodeIfPresent(String.self, forKey: .message) ?? known?.defaultMessage
            guard let message else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: container.codingPath, debugDescription: "the code \(code) is not one the web SDK knows, so the error needs a \"message\""))
            }
            let recoverable = try container.decodeIfPresent(Bool.self, forKey: .recoverable) ?? known?.isRecoverable ?? false
            payload = BridgeErrorPayload(code: code, message: message, recoverable: recoverable)
        }
    }
}

/// Refusing unknown keys in rules files, with the known ones named.
enum RuleKeys {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func refuseUnknown(in decoder: any Decoder, known: [String]) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !known.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath + [key],
                    debugDescription: "unknown field \"\(key.stringValue)\"; expected one of \(known.map { "\"\($0)\"" }.joined(separator: ", "))"))
        }
    }
}
