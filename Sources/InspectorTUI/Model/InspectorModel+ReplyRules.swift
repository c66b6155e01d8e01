import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

/// The glue between the model and its reply rules (``ReplyScheduler``): offering pending
/// requests, sending the answers that are due, and rules added or loaded.
extension InspectorModel {
    /// Offers the pending requests to the reply rules (``ReplyScheduler``); says when a rule's use
    /// was given back or an abandoned request was left alone.
    mutating func offerPendingToRules() {
        guard !rules.isEmpty, !readOnly else { return }
        let update = replies.update(pending: live.pending, now: now, hostNow: hostNow)
        if let given = update.gaveBack.last {
            showFlash("rule \(given.rule.name): \(given.request.correlationId) was answered elsewhere during the delay; not counted", isError: false)
        }
        if let skipped = update.skippedAbandoned.last {
            showFlash(
                "rules skip \(skipped.action) \(skipped.correlationId): pending past the journey's timeout, it has given up on it (answer it with r)",
                isError: false)
        }
    }

    /// Adds a reply rule (from "remember" in the respond dialog or the rules view's new-rule
    /// form), says so, and offers it the pending requests not yet offered to the rules.
    @discardableResult
    mutating func addRule(_ rule: ReplyRule) -> ReplyRule {
        let added = replies.book.add(rule)
        showFlash("rule \(added.name) will answer \(added.times.map { "the next \($0)" } ?? "every") \(added.action) request", isError: false)
        offerPendingToRules()
        return added
    }

    /// Sends the rule answers whose delay has passed.
    mutating func dueReplies() -> [InspectorEffect] {
        replies.due(now: now).flatMap { reply -> [InspectorEffect] in
            let label = "rule \(reply.rule.name): respond \(reply.rule.response.status.rawValue) to \(reply.request.action) \(reply.request.correlationId)"
            let effects = send(.respond(reply.command), label: label)
            if effects.isEmpty {
                replies.outcome(of: reply.request.correlationId, answered: false)
            } else {
                ruleReplyLabels[label] = reply.request.correlationId
            }
            return effects
        }
    }

    /// Takes reply rules kept from an earlier run (or shared as a rules file), **paused**: a rule
    /// that answered live traffic on its own the moment the inspector opened would surprise; the
    /// note says how many there are and how to resume them (R, then space).
    public mutating func loadRules(_ book: ReplyRuleBook, from path: String) {
        var loaded = book
        loaded.resetHits()
        loaded.setAllEnabled(false)
        for rule in loaded.rules { replies.book.add(rule) }
        guard !loaded.isEmpty else { return }
        let count = loaded.rules.count
        showFlash("\(count) reply rule\(count == 1 ? "" : "s") loaded from \(path), paused: R to see them, space to resume one", isError: false)
    }

    /// The most events the history keeps (and saves).
}
