import BridgeCore
import FilterLanguage
import Foundation
import InspectorProtocol

/// Every inspector's fault rules, and the host's fault injector while there are any
/// (docs/inspector-protocol.md, "Fault rules").
///
/// A rule belongs to the client that set it: only that client removes it, and when the client
/// goes away its rules go, so a host is never left misbehaving for an inspector that is gone.
/// Every attached inspector sees every rule and its hit count: a `faults` event at once after a
/// rule is added or removed; hits go through ``publishHits``, which the agent's core coalesces
/// (at most one event per ``AgentLimits/faultHitsIntervalSeconds``).
///
/// Messages an inspector writes itself are never faulted (as ``BreakpointBook`` never holds
/// them): the responses and events of `respond`, `answer`, `sendEvent` and the slot commands,
/// and the request of `inject`. The first rule (oldest first) whose filter picks a message and
/// whose effect applies to its direction decides; a rule that lets a message pass (a `times`
/// rule used up, a probability miss, a sequence's `pass`) leaves it to the next rule.
///
/// What it costs is bounded (``AgentLimits``): at most ``AgentLimits/maxFaultsPerClient`` rules
/// per inspector, each at most ``AgentLimits/maxFaultRuleBytes`` of JSON.
@MainActor
final class FaultBook: BridgeFaultInjector {
    struct Rule {
        var id: String
        var rule: WireFaultRule
        var filter: InFlightMessageFilter
        var owner: Int
        var ownerName: String
        var state: FaultFiringState
        var hits = 0
    }

    private(set) var rules: [Rule] = []
    private var count = 0
    private weak var host: (any InspectableHost)?
    private let limits: AgentLimits
    /// The command running now, if any (``CommandExecutor/current``).
    var running: () -> AgentInbox.CommandTag? = { nil }
    /// Tells the agent's thread a rule was added or removed (sent to every inspector at once).
    var publish: @MainActor ([WireFault]) -> Void = { _ in }
    /// Tells the agent's thread a rule faulted a message: only the hit counts changed (the core
    /// sends them at most once per ``AgentLimits/faultHitsIntervalSeconds``).
    var publishHits: @MainActor ([WireFault]) -> Void = { _ in }

    init(host: any InspectableHost, limits: AgentLimits = AgentLimits()) {
        self.host = host
        self.limits = limits
    }

    /// The rules as clients see them.
    var wire: [WireFault] {
        rules.map { WireFault(id: $0.id, rule: $0.rule, owner: $0.ownerName, ownerClient: $0.owner, hits: $0.hits) }
    }

    // MARK: Commands

    func add(_ rule: WireFaultRule, by tag: AgentInbox.CommandTag) -> Result<JSONValue, InspectorError> {
        let most = limits.maxFaultsPerClient
        guard rules.count(where: { $0.owner == tag.client }) < most else {
            return .failure(
                InspectorError(
                    .tooManyFaults, "this inspector already has \(most) fault rules, the most one inspector may set; remove one first (removeFault)"))
        }
        if let problem = rule.problem { return .failure(InspectorError(.invalidArguments, "fault rule: \(problem)")) }
        let size = (try? JSONEncoding.encode(rule).count) ?? Int.max
        guard size <= AgentLimits.maxFaultRuleBytes else {
            return .failure(
                InspectorError(.invalidArguments, "fault rule: \(size) bytes of JSON, over the \(AgentLimits.maxFaultRuleBytes) a rule takes"))
        }
        let filter: InFlightMessageFilter
        do {
            filter = try InFlightMessageFilter(parsing: rule.filter)
        } catch {
            return .failure(InspectorError(.invalidArguments, "fault rule filter: \(error)"))
        }
        count += 1
        let added = Rule(
            id: "f\(count)", rule: rule, filter: filter, owner: tag.client, ownerName: tag.clientName,
            state: FaultFiringState(firing: rule.effectiveFiring, effect: rule.effect))
        rules.append(added)
        host?.setFaultInjector(self)
        publish(wire)
        return .success(["id": .string(added.id)])
    }

    func remove(_ args: InspectorCommand.RemoveFault, by tag: AgentInbox.CommandTag) -> Result<JSONValue, InspectorError> {
        guard let rule = rules.first(where: { $0.id == args.id }) else {
            let known = rules.map(\.id).joined(separator: ", ")
            return .failure(InspectorError(.notFound, "no fault rule '\(args.id)'; the fault rules now: \(known.isEmpty ? "none" : known)"))
        }
        guard rule.owner == tag.client else {
            return .failure(
                InspectorError(
                    .notOwner,
                    "fault rule \(rule.id) belongs to '\(rule.ownerName)'; only the inspector that set it can remove it, and it goes when that inspector exits"))
        }
        drop([rule.id])
        return .success(["id": .string(rule.id)])
    }

    /// A client went away: its rules go.
    func clientLeft(_ client: Int) {
        let ids = rules.filter { $0.owner == client }.map(\.id)
        guard !ids.isEmpty else { return }
        drop(ids)
    }

    /// The agent stops: no more rules, and the host stops asking.
    func detach() {
        rules.removeAll()
        host?.setFaultInjector(nil)
    }

    private func drop(_ ids: [String]) {
        rules.removeAll { ids.contains($0.id) }
        publish(wire)
        if rules.isEmpty { host?.setFaultInjector(nil) }
    }

    // MARK: BridgeFaultInjector

    func fault(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> FaultVerdict? {
        if let tag = running(), BreakpointBook.wroteItself(tag, direction: direction) { return nil }
        for index in rules.indices {
            // A rule whose next fault cannot apply to this direction does not take a step for it.
            guard rules[index].state.takesStep(for: direction), rules[index].filter.matches(message, direction: direction, json: json)
            else { continue }
            guard let effect = rules[index].state.next() else {
                // A sequence's `pass` step lets the message go on; a probability miss leaves it
                // to the next rule.
                if case .sequence = rules[index].state.firing { return nil }
                continue
            }
            rules[index].hits += 1
            let action = effect.action(using: &rules[index].state.random)
            publishHits(wire)
            return FaultVerdict(rule: rules[index].id, action: action)
        }
        return nil
    }
}
