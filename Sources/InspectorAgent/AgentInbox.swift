import BridgeCore
import DequeModule
import Foundation
import InspectorProtocol
import SocketSupport

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

    private let lock = NSLock()
    private var items: Deque<Item> = []
    private var closed = false
    /// The agent thread is blocked (or about to block) in `poll` and needs a wake byte.
    private var agentParked = false
    let wakePipe: WakePipe

    init() throws {
        wakePipe = try WakePipe()
    }

    /// Called on the host's main actor: a non-blocking append.
    func push(_ item: Item) {
        lock.lock()
        if closed {
            lock.unlock()
            return
        }
        items.append(item)
        let wake = agentParked
        agentParked = false
        lock.unlock()
        if wake { wakePipe.wake() }
    }

    /// Called on the agent thread right before it blocks in `poll`: `true` when it may block
    /// (the queue is empty; the next push wakes it), `false` when items are already waiting.
    func park() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard items.isEmpty else { return false }
        agentParked = true
        return true
    }

    /// Called on the agent thread when `poll` returned: pushes need not wake it now.
    func unpark() {
        lock.lock()
        agentParked = false
        lock.unlock()
    }

    /// Called on the agent thread: everything queued so far, oldest first.
    func takeAll() -> Deque<Item> {
        lock.lock()
        defer { lock.unlock() }
        let taken = items
        items = []
        return taken
    }

    /// Stops accepting items; later pushes are dropped.
    func close() {
        lock.lock()
        closed = true
        items = []
        lock.unlock()
    }
}
