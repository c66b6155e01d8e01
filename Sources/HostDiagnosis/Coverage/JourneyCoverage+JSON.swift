import BridgeCore

/// The JSON of `bridge-inspector stats --coverage --json` (docs/cli.md): every field always
/// present, `null` where there is no value; times in milliseconds. A COUNT is
/// `{"count": N, "inspectorMade": M}` (M of the N an inspector made).
///
/// ```json
/// {"version": 1, "now": MS, "reactionWindowMs": 30000,
///  "actions": [{"action", "source", "met", "requests": COUNT, "unanswered", "statuses": {STATUS: COUNT}, "errorCodes": {CODE: COUNT}}],
///  "otherActions": [...same...],
///  "statuses": [{"status", "met", "answers": COUNT}],
///  "errorCodes": [{"code", "recoverable", "met", "answers": COUNT}],
///  "undocumentedErrorCodes": [{"code", "answers": COUNT}],
///  "events": [{"name", "sender", "met", "sent": COUNT}],
///  "unhappyPaths": [{"action", "correlationId", "time", "met", "errorCode", "recoverable", "inspectorMade",
///                    "reaction", "retryAfterMs", "journeyCancelAfterMs"}],
///  "neverMet": {"actions", "statuses", "errorCodes", "hostEvents", "journeyEvents", "journeyTimeout"}}
/// ```
///
/// `met` of an unhappy path is `error`, `cancelled`, `unsupported` or `journeyTimeout` (with
/// `errorCode` for `error`); `reaction` is `retried`, `retriedNonRecoverable` (a finding),
/// `gaveUp` or `waiting`.
extension JourneyCoverage: Encodable {
    private enum Keys: String, CodingKey {
        case version, now, reactionWindowMs, actions, otherActions, statuses, errorCodes, undocumentedErrorCodes, events, unhappyPaths, neverMet
    }

    /// Encodes as documented on the extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(Self.jsonVersion, forKey: .version)
        try container.encode(now, forKey: .now)
        try container.encode(Self.reactionWindowMs, forKey: .reactionWindowMs)
        try container.encode(actions.map(EncodedAction.init), forKey: .actions)
        try container.encode(otherActions.map(EncodedAction.init), forKey: .otherActions)
        try container.encode(statuses.map { EncodedMet(name: ("status", $0.status.rawValue), count: ("answers", $0.answers)) }, forKey: .statuses)
        try container.encode(
            errorCodes.map { EncodedMet(name: ("code", $0.code.rawValue), count: ("answers", $0.answers), recoverable: $0.code.isRecoverable) },
            forKey: .errorCodes)
        try container.encode(
            undocumentedErrorCodes.map { EncodedMet(name: ("code", $0.code), count: ("answers", $0.answers), withMet: false) }, forKey: .undocumentedErrorCodes)
        try container.encode(
            events.map { EncodedMet(name: ("name", $0.event.name), count: ("sent", $0.sent), sender: $0.event.sender.rawValue) }, forKey: .events)
        try container.encode(unhappyPaths.map(EncodedPath.init), forKey: .unhappyPaths)
        try container.encode(EncodedNeverMet(never: neverMet), forKey: .neverMet)
    }
}

private struct EncodedCount: Encodable {
    var count: Int
    var inspectorMade: Int
    init(_ count: CoverageCount) {
        self.count = count.count
        inspectorMade = count.inspectorMade
    }
}

private struct EncodedAction: Encodable {
    var action: String
    var source: String
    var met: Bool
    var requests: EncodedCount
    var unanswered: Int
    var statuses: [String: EncodedCount]
    var errorCodes: [String: EncodedCount]

    init(_ row: JourneyCoverage.Action) {
        action = row.action
        source = row.source.rawValue
        met = row.requests.met
        requests = EncodedCount(row.requests)
        unanswered = row.unanswered
        statuses = Dictionary(uniqueKeysWithValues: row.statuses.map { ($0.key.rawValue, EncodedCount($0.value)) })
        errorCodes = row.errorCodes.mapValues(EncodedCount.init)
    }
}

/// A named thing with a count: a status, a code or an event.
private struct EncodedMet: Encodable {
    var name: (key: String, value: String)
    var count: (key: String, value: CoverageCount)
    var recoverable: Bool?
    var sender: String?
    var withMet = true

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(name.value, forKey: Key(name.key))
        try container.encode(EncodedCount(count.value), forKey: Key(count.key))
        if withMet { try container.encode(count.value.met, forKey: Key("met")) }
        if let recoverable { try container.encode(recoverable, forKey: Key("recoverable")) }
        if let sender { try container.encode(sender, forKey: Key("sender")) }
    }
}

private struct EncodedPath: Encodable {
    var path: UnhappyPath
    init(_ path: UnhappyPath) { self.path = path }

    private enum Keys: String, CodingKey {
        case action, correlationId, time, met, errorCode, recoverable, inspectorMade, reaction, retryAfterMs, journeyCancelAfterMs
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(path.action, forKey: .action)
        try container.encode(path.correlationId, forKey: .correlationId)
        try container.encode(path.time, forKey: .time)
        switch path.kind {
        case .error(let code):
            try container.encode("error", forKey: .met)
            try container.encode(code, forKey: .errorCode)
        case .cancelled:
            try container.encode("cancelled", forKey: .met)
            try container.encodeNil(forKey: .errorCode)
        case .unsupported:
            try container.encode("unsupported", forKey: .met)
            try container.encodeNil(forKey: .errorCode)
        case .journeyTimeout:
            try container.encode("journeyTimeout", forKey: .met)
            try container.encodeNil(forKey: .errorCode)
        }
        try container.encode(path.recoverable, forKey: .recoverable)
        try container.encode(path.inspectorMade, forKey: .inspectorMade)
        try container.encode(path.reactionName, forKey: .reaction)
        if let retry = path.retryAfterMs { try container.encode(retry, forKey: .retryAfterMs) } else { try container.encodeNil(forKey: .retryAfterMs) }
        if let cancel = path.journeyCancelAfterMs { try container.encode(cancel, forKey: .journeyCancelAfterMs) } else { try container.encodeNil(forKey: .journeyCancelAfterMs) }
    }
}

private struct EncodedNeverMet: Encodable {
    var actions: [String]
    var statuses: [String]
    var errorCodes: [String]
    var hostEvents: [String]
    var journeyEvents: [String]
    var journeyTimeout: Bool

    init(never: JourneyCoverage.NeverMet) {
        actions = never.actions
        statuses = never.statuses.map(\.rawValue)
        errorCodes = never.errorCodes
        hostEvents = never.hostEvents
        journeyEvents = never.journeyEvents
        journeyTimeout = never.journeyTimeout
    }
}
