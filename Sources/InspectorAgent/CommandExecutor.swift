import BridgeCore
import Foundation
import InspectorProtocol

/// Carries out inspector commands on the host's main actor, through the host's public API, so
/// every host rule holds exactly as it does for the app's own code.
@MainActor
final class CommandExecutor {
    weak var host: (any InspectableHost)?
    /// What the host cannot do, and why: those commands are refused with `unsupported`.
    let unsupported: [HostFeature: String]
    /// The command being executed, read by the agent's observer to mark what it causes (and
    /// told to the inbox as it changes, ``runningChanged``).
    private(set) var current: AgentInbox.CommandTag? {
        didSet { runningChanged(current) }
    }
    /// Called with ``current`` whenever it changes.
    var runningChanged: (AgentInbox.CommandTag?) -> Void = { _ in }
    /// Every inspector's breakpoints; the host's interceptor while there are any.
    let breakpoints: BreakpointBook
    /// Every inspector's fault rules; the host's fault injector while there are any.
    let faults: FaultBook

    /// What the embedding process gave for lifecycle steps (`journey`), if anything.
    let journeyControl: (any JourneyControl)?

    init(
        host: any InspectableHost, unsupported: [HostFeature: String] = [:], limits: AgentLimits = AgentLimits(),
        journeyControl: (any JourneyControl)? = nil
    ) {
        self.host = host
        self.journeyControl = journeyControl
        self.unsupported = unsupported
        self.breakpoints = BreakpointBook(host: host, limits: limits)
        self.faults = FaultBook(host: host, limits: limits)
        breakpoints.running = { [weak self] in self?.current }
        faults.running = { [weak self] in self?.current }
    }

    /// Runs one command and returns its result value.
    func run(_ command: InspectorCommand, tag: AgentInbox.CommandTag) -> Result<JSONValue, InspectorError> {
        guard let host else { return .failure(InspectorError(.hostGone, "the host has stopped")) }
        if let feature = command.feature, let reason = unsupported[feature] {
            return .failure(InspectorError(.unsupported, reason))
        }
        current = tag
        if case .respond(let args) = command { current?.rule = args.rule }
        defer { current = nil }
        switch command {
        case .respond(let args):
            do {
                try host.respondToPending(args.correlationId, status: args.status, data: args.data, error: args.error)
                return .success(["correlationId": .string(args.correlationId)])
            } catch {
                return .failure(Self.inspectorError(error))
            }
        case .sendEvent(let args):
            guard !args.name.isEmpty else {
                return .failure(InspectorError(.invalidArguments, "an event needs a name, such as host.ping"))
            }
            // A bare host.ready is the host's own, with its timestamp and version.
            if args.name == "host.ready", args.data == nil {
                host.sendReadyEvent()
            } else {
                host.sendEvent(args.name, data: args.data)
            }
            return .success([:])
        case .completeSlot(let args):
            guard let request = host.activeRequest(of: args.slot) else {
                return .failure(Self.inspectorError(.slotIdle(args.slot)))
            }
            let result: CaptureResult
            switch Self.captureResult(args.result, kind: args.slot) {
            case .success(let value): result = value
            case .failure(let error): return .failure(error)
            }
            if let reason = host.refusal(toComplete: args.slot, with: result) {
                return .failure(InspectorError(.unsupported, reason))
            }
            host.completeSlot(args.slot, with: result)
            return .success(["correlationId": .string(request.correlationId)])
        case .cancelSlot(let args):
            guard let request = host.activeRequest(of: args.slot) else {
                return .failure(Self.inspectorError(.slotIdle(args.slot, attempted: .cancel)))
            }
            let cancellation = CaptureResult.cancelled(reason: args.reason ?? "Cancelled from the inspector")
            if let reason = host.refusal(toComplete: args.slot, with: cancellation) {
                return .failure(InspectorError(.unsupported, reason))
            }
            host.completeSlot(args.slot, with: cancellation)
            return .success(["correlationId": .string(request.correlationId)])
        case .setSlotEnabled(let args):
            host.setSlot(args.slot, enabled: args.enabled)
            return .success([:])
        case .setSlotPermission(let args):
            host.setSlot(args.slot, permission: args.permissionState)
            return .success([:])
        case .addBreakpoint(let args):
            return breakpoints.add(args, by: tag)
        case .removeBreakpoint(let args):
            return breakpoints.remove(args, by: tag)
        case .addFault(let rule):
            return faults.add(rule, by: tag)
        case .removeFault(let args):
            return faults.remove(args, by: tag)
        case .release(let args):
            return held(args.id) { () throws(BridgeHostError) in try host.releaseHeld(args.id, as: args.message, reason: .command) }
        case .answer(let args):
            return held(args.id) { () throws(BridgeHostError) in
                try host.answerHeld(args.id, status: args.status, data: args.data, error: args.error)
            }
        case .drop(let args):
            return held(args.id) { () throws(BridgeHostError) in try host.dropHeld(args.id, reason: .command) }
        case .inject(let args):
            return inject(args, into: host)
        case .journey(let args):
            guard let journeyControl else {
                return .failure(InspectorError(.unsupported, Self.noJourneyControl))
            }
            do {
                let done = try journeyControl.perform(args.step)
                return .success(["step": .string(args.step.rawValue), "done": .string(done)])
            } catch {
                return .failure(InspectorError(.unsupported, error.reason))
            }
        case .clearError:
            host.clearLastError()
            return .success([:])
        case .clearLog:
            host.clearMessageLog()
            return .success([:])
        case .snapshot, .ping:
            return .success([:])
        }
    }

    /// Runs an action on the held message `id`; the result names the held message's
    /// correlation id.
    private func held(_ id: String, _ action: () throws(BridgeHostError) -> Void) -> Result<JSONValue, InspectorError> {
        let correlationId = host?.heldMessages.first { $0.id == id }?.message.correlationId
        do {
            try action()
            return .success(["id": .string(id), "correlationId": correlationId.map(JSONValue.string) ?? .null])
        } catch {
            return .failure(Self.inspectorError(error))
        }
    }

    /// Hands the host a message as the journey would; the result names its correlation id.
    private func inject(_ args: InspectorCommand.Inject, into host: any InspectableHost) -> Result<JSONValue, InspectorError> {
        if let reason = host.refusalToInject() { return .failure(InspectorError(.unsupported, reason)) }
        switch (args.message, args.raw) {
        case (let message?, nil):
            guard let json = try? BridgeMessageCodec().encode(message) else {
                return .failure(InspectorError(.invalidArguments, "the message cannot be encoded as JSON (NaN or infinite numbers?)"))
            }
            host.inject(json)
            return .success(["correlationId": .string(message.correlationId)])
        case (nil, let raw?):
            host.inject(Data(raw.utf8))
            return .success([:])
        default:
            return .failure(
                InspectorError(.invalidArguments, "inject takes exactly one of \"message\" (a bridge message) or \"raw\" (text)"))
        }
    }

    /// Runs `command` on the main actor later and pushes its reply to `inbox`: how the agent's
    /// core starts every command it does not answer itself. Callable from any thread.
    nonisolated func start(_ command: InspectorCommand, tag: AgentInbox.CommandTag, replyingTo inbox: AgentInbox) {
        Task { @MainActor in
            let result = run(command, tag: tag)
            // A host that learns later what a command sent (GBGBridge's page script) gets a
            // moment to report it, so the reply carries the messages sent as it does natively.
            if case .success = result { await settle(tag) }
            inbox.push(.reply(tag: tag, result: result))
        }
    }

    /// A client went away: its breakpoints go and what they hold is released, on the main actor
    /// later. Callable from any thread.
    nonisolated func clientLeft(_ client: Int) {
        Task { @MainActor in
            faults.clientLeft(client)
            breakpoints.clientLeft(client)
        }
    }

    /// Waits until the host has reported what the command `tag` made it send (bounded by the
    /// host; at once for a native host).
    func settle(_ tag: AgentInbox.CommandTag) async {
        await host?.settle(after: InspectionCause(tag: tag))
    }

    /// Why `journey` is refused by an agent started without a ``JourneyControl``.
    static let noJourneyControl =
        "this host gave the inspector no journey control (InspectorAgent's journeyControl): it cannot detach, attach or reload the journey's web view from here"

    static func captureResult(_ result: InspectorCommand.SlotResult, kind: CaptureCapability.Kind) -> Result<CaptureResult, InspectorError> {
        switch result {
        case .success(let imageBase64, let width, let height, let mimeType):
            guard width > 0, height > 0, width <= SyntheticImage.maxSide, height <= SyntheticImage.maxSide else {
                return .failure(InspectorError(.invalidArguments, "width and height must be between 1 and \(SyntheticImage.maxSide)"))
            }
            let data: Data
            if let imageBase64 {
                guard let decoded = Data(base64Encoded: imageBase64) else {
                    return .failure(InspectorError(.invalidArguments, "imageBase64 is not valid base64"))
                }
                data = decoded
            } else {
                // A plausible capture, compressed (tens of kilobytes), not a payload as heavy as its pixels.
                data = SyntheticImage.capturePNG(kind, width: width, height: height)
            }
            let type = mimeType ?? (imageBase64 == nil ? "image/png" : "image/jpeg")
            switch kind {
            case .document: return .success(.document(DocumentCaptureResult(imageData: data, width: width, height: height, mimeType: type)))
            case .selfie: return .success(.selfie(SelfieCaptureResult(imageData: data, width: width, height: height, mimeType: type)))
            }
        case .error(let error):
            return .success(.failure(error))
        case .cancelled(let reason):
            return .success(.cancelled(reason: reason))
        }
    }

    static func inspectorError(_ error: BridgeHostError) -> InspectorError {
        switch error {
        case .alreadyAnswered: return InspectorError(.alreadyAnswered, error.description)
        case .handledElsewhere: return InspectorError(.handledElsewhere, error.description)
        case .notPending: return InspectorError(.notPending, error.description)
        case .slotIdle: return InspectorError(.slotIdle, error.description)
        case .heldAtBreakpoint: return InspectorError(.held, error.description)
        case .notHeld: return InspectorError(.notHeld, error.description)
        case .holdResolved: return InspectorError(.alreadyResolved, error.description)
        case .invalidEdit: return InspectorError(.invalidArguments, error.description)
        }
    }
}
