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
    /// The command running now, if any (``CommandExecutor/current``).
    var running: () -> AgentInbox.CommandTag? = { nil }
    /// Tells the agent's thread the breakpoints changed.
    var publish: @MainActor ([WireBreakpoint]) -> Void = { _ in }

    init(host: any InspectableHost) {
        self.host = host
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
        breakpoints[index].hits += 1
        publish(wire)
        return HoldRequest(breakpoint: breakpoints[index].id, timeLimit: breakpoints[index].holdSeconds)
    }

    /// Whether the message going `direction` now was written by the running command itself.
    static func wroteItself(_ tag: AgentInbox.CommandTag, direction: TrafficRecord.Direction) -> Bool {
        switch direction {
        case .received: return tag.kind == "inject"
        case .sent: return !tag.runsHandlers
        }
    }
}
