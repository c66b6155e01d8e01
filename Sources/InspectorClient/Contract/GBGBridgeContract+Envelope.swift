import BridgeCore

extension GBGBridgeContract {
    /// The envelope rules a JSON value breaks that did not decode as a message (a log row of
    /// malformed input, from the journey or a page's report of what the host sent): the field
    /// types of Troubleshooting, "Message Decoding Failures", the documented statuses and the
    /// error object. A value that is not an object is no message at all: nothing to say beyond
    /// the decode failure, so it breaks no rule here. Looks at fixed paths only (the envelope,
    /// `payload`, `payload.error`), never deeper.
    public static func check(envelope value: JSONValue, direction: ContractRule.Direction) -> [ContractViolation] {
        guard case .object(let fields) = value else { return [] }
        var found: [ContractViolation] = []
        requireString(fields["version"], "version", .versionString, into: &found)
        requireString(fields["correlationId"], "correlationId", .correlationIdString, into: &found)
        switch fields["type"] {
        case .string(let text)? where MessageType(rawValue: text) != nil: break
        case nil: found.append(ContractViolation(.typeDocumented, "type is missing"))
        case let other?: found.append(ContractViolation(.typeDocumented, "type is \(ContractText.describe(other)), not \(names(MessageType.allCases.map(\.rawValue)))"))
        }
        switch fields["timestamp"] {
        case .number?: break
        case nil: found.append(ContractViolation(.timestampNumber, "timestamp is missing"))
        case let other?: found.append(ContractViolation(.timestampNumber, "timestamp is \(ContractText.describe(other)), not a number"))
        }
        guard case .object(let payload)? = fields["payload"] else {
            let what = fields["payload"].map { "is \(ContractText.describe($0)), not an object" } ?? "is missing"
            found.append(ContractViolation(.payloadAction, "payload \(what)"))
            return found
        }
        requireString(payload["action"], "payload.action", .payloadAction, into: &found)
        if let data = payload["data"], data != .null {
            if case .object = data {} else {
                found.append(ContractViolation(.dataObject, "payload.data is \(ContractText.describe(data)), not an object"))
            }
        }
        if let status = payload["status"] {
            if case .string(let text) = status, BridgeResponseStatus(rawValue: text) != nil {} else {
                found.append(ContractViolation(
                    .statusDocumented, "payload.status is \(ContractText.describe(status)), not \(names(BridgeResponseStatus.allCases.map(\.rawValue)))"))
            }
        }
        if let error = payload["error"] {
            checkErrorObject(error, into: &found)
        }
        return found
    }

    private static func checkErrorObject(_ error: JSONValue, into found: inout [ContractViolation]) {
        guard case .object(let members) = error else {
            found.append(ContractViolation(.errorObject, "payload.error is \(ContractText.describe(error)), not an object"))
            return
        }
        var wrong: [String] = []
        for key in ["code", "message"] {
            if case .string? = members[key] { continue }
            wrong.append(members[key].map { "\(key) is \(ContractText.describe($0))" } ?? "no \(key)")
        }
        if case .bool? = members["recoverable"] {} else {
            wrong.append(members["recoverable"].map { "recoverable is \(ContractText.describe($0))" } ?? "no recoverable")
        }
        if !wrong.isEmpty {
            found.append(ContractViolation(.errorObject, "payload.error has " + wrong.joined(separator: ", ")))
        }
        if case .string(let code)? = members["code"], case .bool(let recoverable)? = members["recoverable"] {
            checkRecoverable(code: code, recoverable: recoverable, into: &found)
        }
    }

    /// Adds a violation of `rule` unless `value` is a non-empty string; `name` is its path.
    static func requireString(_ value: JSONValue?, _ name: String, _ rule: ContractRule, into found: inout [ContractViolation]) {
        switch value {
        case .string(let text)? where !text.isEmpty: break
        case .string?: found.append(ContractViolation(rule, "\(name) is empty"))
        case nil: found.append(ContractViolation(rule, "\(name) is missing"))
        case let other?: found.append(ContractViolation(rule, "\(name) is \(ContractText.describe(other)), not a string"))
        }
    }

    /// `a, b or c`.
    static func names(_ list: [String]) -> String {
        guard list.count > 1 else { return list.first ?? "" }
        return list.dropLast().joined(separator: ", ") + " or " + (list.last ?? "")
    }
}
