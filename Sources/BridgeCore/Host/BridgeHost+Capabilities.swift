extension BridgeHost {
    /// Registers a handler for its `action`, replacing any earlier one for the same action.
    ///
    /// Register before the journey's requests arrive: a request with no handler goes to
    /// `pendingRequests` (Troubleshooting, "Handler Not Called for Requests"). A typed slot's action
    /// always goes to the slot.
    public func register(handler: any BridgeCapabilityHandler) {
        handlers[handler.action] = handler
    }

    /// Removes the handler for `action`. Removing `capability.query` removes the built-in answer too.
    public func unregisterHandler(for action: String) {
        handlers.removeValue(forKey: action)
    }

    /// Registers a custom capability: requests whose action is `id` run `handler`, and `id` is
    /// reported in `capability.query` as supported with `version`.
    ///
    /// ```swift
    /// host.registerCustomCapability("device.info", version: "1.0") { request, responder in
    ///     responder.respond(status: .success, data: ["model": "Simulator"], error: nil)
    /// }
    /// ```
    ///
    /// If a typed slot has the same capability id, the slot takes precedence in the query answer
    /// (FAQ, "What is the difference between typed slots and custom capabilities?").
    ///
    /// The handler runs on the main actor and starts in the order requests arrive; one that
    /// responds without awaiting answers in that order (see ``BridgeCapabilityHandler``).
    public func registerCustomCapability(
        _ id: String, version: String = "1.0",
        handler: @escaping @MainActor @Sendable (BridgeMessage, BridgeResponder) async -> Void
    ) {
        handlers[id] = ClosureCapabilityHandler(action: id, body: handler)
        declaredCapabilities.remove(id)
        customCapabilityVersions[id] = version
        emit(.customCapabilities(customCapabilities))
    }

    /// Declares a custom capability that is reported as supported but has no handler: its requests
    /// go to `pendingRequests`, to be answered with ``respond(to:status:data:error:)`` (by the app,
    /// or by hand from an inspector during development).
    public func declareCustomCapability(_ id: String, version: String = "1.0") {
        handlers.removeValue(forKey: id)
        declaredCapabilities.insert(id)
        customCapabilityVersions[id] = version
        emit(.customCapabilities(customCapabilities))
    }

    /// Removes a custom capability and its handler.
    public func removeCustomCapability(_ id: String) {
        guard customCapabilityVersions.removeValue(forKey: id) != nil else { return }
        handlers.removeValue(forKey: id)
        declaredCapabilities.remove(id)
        emit(.customCapabilities(customCapabilities))
    }

    /// The custom capabilities, sorted by id.
    public var customCapabilities: [CustomCapability] {
        let slotIds = Set(captureSlots.map(\.capabilityId))
        return customCapabilityVersions.keys.sorted().map { id in
            CustomCapability(
                id: id, version: customCapabilityVersions[id] ?? "1.0", hasHandler: handlers[id] != nil,
                isShadowedBySlot: slotIds.contains(id))
        }
    }

    /// The capabilities the built-in `capability.query` handler reports right now.
    ///
    /// With ``init(hostVersion:)`` it is built afresh on every call from the typed slots
    /// (supported when a handler is set and the slot is enabled, with `permissionState`) and the
    /// custom capabilities; a slot wins over a custom capability with the same id. With
    /// ``init(configuration:)`` it is exactly the configuration's capabilities.
    public func capabilityAnswer() -> [String: BridgeCapabilityInfo] {
        if let capabilityReport { return capabilityReport() }
        return CapabilityQueryAnswer.capabilities(
            slots: captureSlots.map {
                CapabilityQueryAnswer.Slot(
                    capabilityId: $0.capabilityId, version: $0.version, supported: $0.isSupported, permissionState: $0.permissionState)
            },
            customCapabilities: customCapabilityVersions.map { CapabilityQueryAnswer.Custom(id: $0.key, version: $0.value) })
    }

    /// The `data` of the built-in `capability.query` response:
    /// `{"environment": "ios", "hostVersion": "1.0.0", "capabilities": {id: {supported, version, permissionState?}}}`.
    public func capabilityQueryData() -> [String: JSONValue] {
        CapabilityQueryAnswer.data(environment: environment, hostVersion: hostVersion, capabilities: capabilityAnswer())
    }
}

/// The built-in handler for `capability.query`, registered by every host.
///
/// Replace it with your own through ``BridgeHost/register(handler:)`` with the same action.
public struct CapabilityQueryHandler: BridgeCapabilityHandler {
    /// `capability.query`.
    public static let action = "capability.query"
    /// `capability.query`.
    public var action: String { Self.action }

    /// Creates the handler.
    public init() {}

    public func handle(request: BridgeMessage, responder: BridgeResponder) async {
        guard let host = responder.host else { return }
        host.respond(to: request.correlationId, status: .success, data: host.capabilityQueryData(), error: nil)
    }
}
