import BridgeCore
import DequeModule
import Foundation
import InspectorProtocol
import SocketSupport
import ThreadSupport

/// The hand-off between the host's main actor and the agent's thread.
///
/// The host side only appends to a queue under a lock and, when the agent thread is parked in
/// `poll`, writes one byte to a wake pipe: no encoding, no socket I/O, no waiting on the agent.
/// While the agent is busy (or napping between batches) nothing is written at all: it looks at
/// the queue before it parks again. The agent thread takes everything queued at once.
final class AgentInbox: @unchecked Sendable {
    /// Identifies the command whose execution caused a change.
    struct CommandTag: Sendable, Hashable {
        var client: Int
        var command: String
        /// The reply rule the command applies, if any; not part of the command's identity.
        var rule: String? = nil
        /// The command's wire name (`respond`, `inject`, …); not part of its identity.
        var kind: String = ""
        /// The client's name from its hello; not part of the command's identity.
        var clientName: String = ""

        /// Whether the command hands a message to the host's handlers (`inject`, `release`, and
        /// `removeBreakpoint`, which releases what the breakpoint held): what those send in turn
        /// is the host's, not the inspector's.
        var runsHandlers: Bool { kind == "inject" || kind == "release" || kind == "removeBreakpoint" }

        static func == (left: CommandTag, right: CommandTag) -> Bool {
            left.client == right.client && left.command == right.command
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(client)
            hasher.combine(command)
        }
    }

    enum Item: Sendable {
        case change(BridgeChange, tag: CommandTag?)
        case reply(tag: CommandTag, result: Result<JSONValue, InspectorError>)
        /// The breakpoints changed (every inspector's, as they are now).
        case breakpoints([WireBreakpoint])
        /// A breakpoint's match was let through because of a cap on what the host holds.
        case holdSkipped(WireHoldSkipped)
        /// A fault rule was added or removed (every inspector's rules, as they are now): sent at once.
        case faults([WireFault])
        /// A fault rule faulted a message: only hit counts changed (every inspector's rules, as
        /// they are now). Sent at most once per ``AgentLimits/faultHitsIntervalSeconds``.
        case faultHits([WireFault])
    }

    private struct Queue {
        var items: Deque<Item> = []
        /// The batch the agent emptied on its last pass, kept for its capacity (``drain(_:)``).
        var spare: Deque<Item> = []
        var closed = false
        /// The agent thread is blocked (or about to block) in `poll` and needs a wake byte.
        var agentParked = false
    }

    private let queue = Locked(Queue())
    let wakePipe: WakePipe

    init() throws {
        wakePipe = try WakePipe()
    }

    /// Called on the host's main actor: a non-blocking append.
    func push(_ item: Item) {
        let wake = queue.withLock { queue -> Bool in
            guard !queue.closed else { return false }
            queue.items.append(item)
            defer { queue.agentParked = false }
            return queue.agentParked
        }
        if wake { wakePipe.wake() }
    }

    /// Called on the agent thread right before it blocks in `poll`: `true` when it may block
    /// (the queue is empty; the next push wakes it), `false` when items are already waiting.
    func park() -> Bool {
        queue.withLock { queue in
            guard queue.items.isEmpty else { return false }
            queue.agentParked = true
            return true
        }
    }

    /// Called on the agent thread when `poll` returned: pushes need not wake it now.
    func unpark() {
        queue.withLock { $0.agentParked = false }
    }

    /// Called on the agent thread: hands everything queued so far, oldest first, to `handle`,
    /// and returns how many items there were (`handle` is not called for none).
    ///
    /// Two buffers take turns: the queue the host appends to is swapped for the batch emptied on
    /// the last pass, which keeps its capacity, so the host's pushes append into a buffer already
    /// grown instead of growing a fresh one from nothing each pass (every doubling a new
    /// allocation and a copy of the items so far, on the host's thread). A batch larger than
    /// ``batchCapacityKept`` is let go after a burst rather than kept at that size for good.
    @discardableResult
    func drain(_ handle: (Deque<Item>) -> Void) -> Int {
        var batch = queue.withLock { queue -> Deque<Item> in
            var batch: Deque<Item> = []
            swap(&batch, &queue.spare)
            swap(&batch, &queue.items)
            return batch
        }
        let count = batch.count
        if count > 0 { handle(batch) }
        guard count <= Self.batchCapacityKept else { return count }
        batch.removeAll(keepingCapacity: true)
        queue.withLock { swap(&$0.spare, &batch) }
        return count
    }

    /// The largest batch whose buffer is kept for the next pass (a few milliseconds of a host at
    /// full speed).
    static let batchCapacityKept = 4096

    /// Stops accepting items; later pushes are dropped.
    func close() {
        queue.withLock { queue in
            queue.closed = true
            queue.items = []
            queue.spare = []
        }
    }
}
