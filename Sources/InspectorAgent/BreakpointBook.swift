import BridgeCore
import FilterLanguage
import Foundation
import InspectorProtocol

/// Every inspector's breakpoints, and the host's interceptor while there are any.
///
/// A breakpoint belongs to the client that set it: only that client removes it, and when the
/// client goes away its breakpoints go and what they hold is released as it was, so the host
/// never waits on a dead inspector. The host releases anything held past its time limit on its
/// own (``BridgeCore/HoldRequest/timeLimit``).
///
/// Messages an inspector writes itself are never held (it just wrote them): the responses and
/// events of `respond`, `answer`, `sendEvent` and the slot commands, and the request of `inject`.
/// What a handler sends in turn (after `inject` or `release`) may be held.
///
/// What it costs is bounded (``AgentLimits``): each inspector sets at most
/// ``AgentLimits/maxBreakpointsPerClient`` breakpoints, and the host holds at most
/// ``AgentLimits/maxHeldMessages`` messages and ``AgentLimits/maxHeldMessageBytes`` bytes of them at
/// once; a match beyond that goes on, not held, and ``noteSkipped`` tells the clients.
@MainActor
final class BreakpointBook: BridgeInterceptor {
    struct Breakpoint {
        var id: String
        var filter: InFlightMessageFilter
        var owner: Int
        var ownerName: String
        var holdSeconds: Double
        var hits = 0
    }

    private(set) var breakpoints: [Breakpoint] = []
    private var count = 0
    private weak var host: (any InspectableHost)?
    private let limits: AgentLimits
    /// The command running now, if any (``CommandExecutor/current``).
    var running: () -> AgentInbox.CommandTag? = { nil }
    /// Tells the agent's thread the breakpoints changed (added or removed; not on a hit, which
    /// the `held` event announces).
    var publish: @MainActor ([WireBreakpoint]) -> Void = { _ in }
    /// Tells the agent's thread a match was let through because of a cap on what the host holds.
    var noteSkipped: @MainActor (WireHoldSkipped) -> Void = { _ in }

    init(host: any InspectableHost, limits: AgentLimits = AgentLimits()) {
        self.host = host
        self.limits = limits
    }

    /// The breakpoints as clients see them.
    var wire: [WireBreakpoint] {
        breakpoints.map {
            WireBreakpoint(
                id: $0.id, filter: $0.filter.source, owner: $0.ownerName, ownerClient: $0.owner, holdSeconds: $0.holdSeconds,
                hits: $0.hits)
        }
    }

    // MARK: Commands

    func add(_ args: InspectorCommand.AddBreakpoint, by tag: AgentInbox.CommandTag) -> Result<JSONValue, InspectorError> {
        let most = limits.maxBreakpointsPerClient
        guard breakpoints.count(where: { $0.owner == tag.client }) < most else {
            return .failure(
                InspectorError(
                    .tooManyBreakpoints,
                    "this inspector already has \(most) breakpoints, the most one inspector may set; remove one first (removeBreakpoint)"))
        }
        guard args.filter.utf8.count <= AgentLimits.maxBreakpointFilterBytes else {
            return .failure(
                InspectorError(
                    .invalidArguments,
                    "breakpoint filter: \(args.filter.utf8.count) bytes, over the \(AgentLimits.maxBreakpointFilterBytes) a breakpoint takes"))
        }
        let filter: InFlightMessageFilter
        do {
            filter = try InFlightMessageFilter(parsing: args.filter)
        } catch {
            return .failure(InspectorError(.invalidArguments, "breakpoint filter: \(error)"))
        }
        let seconds = args.holdSeconds ?? InspectorCommand.defaultHoldSeconds
        guard seconds.isFinite, seconds >= 0.05, seconds <= InspectorCommand.maxHoldSeconds else {
            return .failure(
                InspectorError(
                    .invalidArguments,
                    "holdSeconds must be between 0.05 and \(Int(InspectorCommand.maxHoldSeconds)) (got \(args.holdSeconds.map { "\($0)" } ?? "nothing"))"))
        }
        count += 1
        let breakpoint = Breakpoint(id: "b\(count)", filter: filter, owner: tag.client, ownerName: tag.clientName, holdSeconds: seconds)
        breakpoints.append(breakpoint)
        host?.setInterceptor(self)
        publish(wire)
        return .success(["id": .string(breakpoint.id)])
    }

    func remove(_ args: InspectorCommand.RemoveBreakpoint, by tag: AgentInbox.CommandTag) -> Result<JSONValue, InspectorError> {
        guard let breakpoint = breakpoints.first(where: { $0.id == args.id }) else {
            let known = breakpoints.map(\.id).joined(separator: ", ")
            return .failure(
                InspectorError(.notFound, "no breakpoint '\(args.id)'; the breakpoints now: \(known.isEmpty ? "none" : known)"))
        }
        guard breakpoint.owner == tag.client else {
            return .failure(
                InspectorError(
                    .notOwner,
                    "breakpoint \(breakpoint.id) belongs to '\(breakpoint.ownerName)'; only the inspector that set it can remove it, and it goes when that inspector exits"))
        }
        drop([breakpoint.id], reason: .breakpointRemoved)
        return .success(["id": .string(breakpoint.id)])
    }

    /// A client went away: its breakpoints go, and what they hold is released.
    func clientLeft(_ client: Int) {
        let ids = breakpoints.filter { $0.owner == client }.map(\.id)
        guard !ids.isEmpty else { return }
        drop(ids, reason: .ownerGone)
    }

    /// The agent stops: no more breakpoints, and the host releases everything held.
    func detach() {
        breakpoints.removeAll()
        host?.setInterceptor(nil)
    }

    private func drop(_ ids: [String], reason: HeldResolution.Reason) {
        breakpoints.removeAll { ids.contains($0.id) }
        publish(wire)
        guard let host else { return }
        for held in host.heldMessages where ids.contains(held.breakpoint) {
            try? host.releaseHeld(held.id, as: nil, reason: reason)
        }
        // With no breakpoint left, the host stops asking.
        if breakpoints.isEmpty { host.setInterceptor(nil) }
    }

    // MARK: BridgeInterceptor

    func hold(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> HoldRequest? {
        if let tag = running(), Self.wroteItself(tag, direction: direction) { return nil }
        guard let index = breakpoints.firstIndex(where: { $0.filter.matches(message, direction: direction, json: json) }) else {
            return nil
        }
        if let skipped = capReached(by: message, direction: direction, bytes: json.count, breakpoint: breakpoints[index].id) {
            noteSkipped(skipped)
            return nil
        }
        // Clients count the hit from the `held` event: the list is not sent again for it.
        breakpoints[index].hits += 1
        return HoldRequest(breakpoint: breakpoints[index].id, timeLimit: breakpoints[index].holdSeconds)
    }

    /// Why a message of `bytes` bytes that `breakpoint` matched must go on rather than be held:
    /// the host holds the most messages already, or the message would pass the most bytes held;
    /// nil when it may be held.
    private func capReached(by message: BridgeMessage, direction: TrafficRecord.Direction, bytes: Int, breakpoint: String) -> WireHoldSkipped? {
        let held = host?.heldMessages ?? []
        let reason: WireHoldSkipped.Reason
        let limit: Int
        if held.count >= limits.maxHeldMessages {
            (reason, limit) = (.heldCount, limits.maxHeldMessages)
        } else if held.reduce(bytes, { $0 + $1.json.count }) > limits.maxHeldMessageBytes {
            (reason, limit) = (.heldBytes, limits.maxHeldMessageBytes)
        } else {
            return nil
        }
        return WireHoldSkipped(
            breakpoint: breakpoint, correlationId: message.correlationId, action: message.payload.action, direction: direction,
            reason: reason, limit: limit, bytes: bytes, time: AgentState.ms(Date()))
    }

    /// Whether the message going `direction` now was written by the running command itself.
    static func wroteItself(_ tag: AgentInbox.CommandTag, direction: TrafficRecord.Direction) -> Bool {
        switch direction {
        case .received: return tag.kind == "inject"
        case .sent: return !tag.runsHandlers
        }
    }
}
