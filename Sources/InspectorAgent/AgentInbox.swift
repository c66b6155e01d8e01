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
    }

    private struct Queue {
        var items: Deque<Item> = []
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

    /// Called on the agent thread: everything queued so far, oldest first.
    func takeAll() -> Deque<Item> {
        var batch: Deque<Item> = []
        takeAll(into: &batch)
        return batch
    }

    /// Called on the agent thread: swaps everything queued so far (oldest first) into `batch`,
    /// which must be empty, and gives the queue `batch`'s buffer in exchange.
    ///
    /// The host's pushes then append into a buffer already grown by an earlier batch instead of
    /// growing a fresh one from nothing each time (every doubling a new allocation and a copy of
    /// the items so far, on the host's thread). The agent keeps one batch and empties it with
    /// `removeAll(keepingCapacity: true)` after handling it, so two buffers take turns.
    func takeAll(into batch: inout Deque<Item>) {
        queue.withLock { queue in swap(&queue.items, &batch) }
    }

    /// Stops accepting items; later pushes are dropped.
    func close() {
        queue.withLock { queue in
            queue.closed = true
            queue.items = []
        }
    }
}
