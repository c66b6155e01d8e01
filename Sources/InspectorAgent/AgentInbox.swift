import BridgeCore
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
        /// A change, as the host reported it, and what the host's side knows of its message.
        case change(BridgeChange, tag: CommandTag?, links: Links = Links())
        /// A message that crossed the bridge, with nothing but its direction and time to say:
        /// its ``Traffic`` record, whose bytes are in the batch's ``Batch/bytes``.
        case traffic(Traffic)
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

    /// What the host's side (``TrafficMemory``, or for a native host ``LoggedJSON``) knows of a
    /// change's message, which the agent's copy does not keep: whether a pending request is the
    /// message received last, whether a held message is the one logged last in its direction.
    struct Links: Sendable, Equatable {
        var isLastReceived = false
        var isLastLogged = false
        /// For a native host's change that the host did not say is about the message logged
        /// last: that message's JSON (``LoggedJSON``), for ``logged(is:)`` to compare.
        var lastLoggedJSON: Data? = nil

        /// Whether the message logged last, whose JSON this carries, is `message`: it reads as
        /// a message equal to it. Called on the agent's thread; `false` without the JSON.
        func logged(is message: BridgeMessage) -> Bool {
            guard let lastLoggedJSON, let logged = try? BridgeMessageCodec().decode(lastLoggedJSON).get() else { return false }
            return logged == message
        }
    }

    /// A traffic record on the hot path: scalars only, its message's bytes copied into the
    /// inbox's own buffer. Nothing in it is reference-counted, so the host's thread and the
    /// agent's never touch the same object for it (every retain and release of a shared object
    /// is an atomic operation on a cache line both threads use).
    struct Traffic: Sendable, Equatable {
        var direction: TrafficRecord.Direction
        var time: Date
        /// Where its message's bytes are in ``Batch/bytes``.
        var start: Int
        var count: Int
    }

    /// What one ``drain(_:)`` hands the agent: the items, oldest first, and the bytes of the
    /// messages their ``Item/traffic(_:)`` records stand for. A traffic record is an item of its
    /// own (not kept in an array beside them): one append per message on the host's thread.
    struct Batch {
        var items: [Item] = []
        var bytes: [UInt8] = []

        var isEmpty: Bool { items.isEmpty }

        mutating func removeAll() {
            items.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
        }

        /// Bytes of message text, by capacity (the items are bounded by their number).
        var capacityBytes: Int { bytes.capacity }
    }

    private struct Queue {
        var batch = Batch()
        /// The batch the agent emptied on its last pass, kept for its capacity (``drain(_:)``).
        var spare = Batch()
        /// What a host reporting through ``push(_:tag:causedByRunningCommand:)`` asks about.
        var memory = TrafficMemory()
        /// What a native host reporting in pieces asks about.
        var logged = LoggedJSON()
        /// The inspector command running on the host now (``setRunning(_:)``).
        var running: CommandTag?
        /// `running != nil`, kept beside it: the hot path tests a flag instead of an optional
        /// tag of strings.
        var isRunning = false
        var closed = false
        /// The agent thread is blocked (or about to block) in `poll` and needs a wake byte.
        var agentParked = false

        /// Appends a traffic record as a ``Traffic`` record and its bytes, unless its message is
        /// larger than ``AgentInbox/compactMessageLimit``: then returns `false`, having appended
        /// nothing. The bytes are reached once (each look into `Data`'s storage is an exclusivity
        /// check).
        mutating func appendCompact(_ direction: TrafficRecord.Direction, json: Data, time: Date) -> Bool {
            json.withUnsafeBytes { json in
                guard json.count <= AgentInbox.compactMessageLimit else { return false }
                let start = batch.bytes.count
                json.withMemoryRebound(to: UInt8.self) { batch.bytes.append(contentsOf: $0) }
                batch.items.append(.traffic(Traffic(direction: direction, time: time, start: start, count: json.count)))
                return true
            }
        }
    }

    private let queue = Locked(Queue())
    let wakePipe: WakePipe

    init() throws {
        wakePipe = try WakePipe()
    }

    /// The largest message handed over as bytes; larger ones (whose records leave their data
    /// out) keep the whole change.
    static let compactMessageLimit = WireProtocol.maxAgentFrameBytes - 64 * 1024

    /// Called on the host's main actor: a non-blocking append.
    func push(_ item: Item) {
        enqueue { $0.batch.items.append(item) }
    }

    /// Adds to the queue with `add`, under the lock, unless the inbox is closed, and wakes the
    /// agent's thread if it is parked in `poll`: the one way every push appends.
    private func enqueue(_ add: (inout Queue) -> Void) {
        let wake = queue.withLock { queue -> Bool in
            guard !queue.closed else { return false }
            add(&queue)
            defer { queue.agentParked = false }
            return queue.agentParked
        }
        if wake { wakePipe.wake() }
    }

    /// Called on the host's main actor when the command it runs for an inspector starts and ends.
    func setRunning(_ tag: CommandTag?) {
        queue.withLock { queue in
            queue.running = tag
            queue.isRunning = tag != nil
        }
    }

    /// Called on the host's main actor with every change the host reports, caused by `tag`'s
    /// command (or, with `causedByRunningCommand`, by the one running now, ``setRunning(_:)``):
    /// a plain traffic record (no command, no hold, fault or note on it, not too large) is handed
    /// over as a ``Traffic`` record and its bytes; any other change as it is, with its ``Links``.
    func push(_ change: BridgeChange, tag: CommandTag? = nil, causedByRunningCommand: Bool = false) {
        switch change {
        case .traffic(let record):
            enqueue { queue in
                queue.memory.note(record.direction, record.message)
                // The tag is looked at, not copied, on the hot path.
                let caused = causedByRunningCommand ? queue.isRunning : tag != nil
                if !caused, Self.isPlain(record), queue.appendCompact(record.direction, json: record.json, time: record.time) { return }
                queue.batch.items.append(.change(.traffic(record), tag: causedByRunningCommand ? queue.running : tag))
            }
        default:
            enqueue { queue in
                let tag = causedByRunningCommand ? queue.running : tag
                queue.batch.items.append(.change(change, tag: tag, links: queue.memory.links(of: change)))
            }
        }
    }

    /// Called on the host's main actor with every change but traffic from a native host
    /// (`BridgeHost.addPackageObserver(_:)`), caused by the command running now if any, and
    /// whether the host said it is about the message logged last (``LoggedJSON``).
    func pushCausedByRunning(_ change: BridgeChange, isLastLogged: Bool) {
        enqueue { queue in
            let tag = queue.isRunning ? queue.running : nil
            queue.batch.items.append(.change(change, tag: tag, links: queue.logged.links(of: change, isLastLogged: isLastLogged)))
        }
    }

    /// Called on the host's main actor with every message that crosses a native host, in pieces
    /// (`BridgeHost.addPackageObserver(_:)`), caused by the command running now if any: what
    /// ``push(_:tag:causedByRunningCommand:)`` does with its traffic record, without the record
    /// unless it goes the whole way.
    func pushTraffic(_ direction: TrafficRecord.Direction, _ message: BridgeMessage, json: Data, time: Date, marks: TrafficMarks) {
        enqueue { queue in
            queue.logged.note(direction, json)
            // The flag is tested, and the tag copied only for a record a command caused.
            if !queue.isRunning, marks.isEmpty, queue.appendCompact(direction, json: json, time: time) { return }
            let record = TrafficRecord(
                direction: direction, message: message, json: json, time: time, deliveryError: marks.deliveryError,
                hold: marks.hold, fault: marks.fault)
            queue.batch.items.append(.change(.traffic(record), tag: queue.running))
        }
    }

    /// Whether a record says nothing but its direction, time and bytes (its size is for
    /// ``Queue/appendCompact(_:json:time:)`` to judge).
    private static func isPlain(_ record: TrafficRecord) -> Bool {
        record.hold == nil && record.fault == nil && record.deliveryError == nil && record.reported == nil
            && record.lost == nil
    }

    /// Called on the agent thread right before it blocks in `poll`: `true` when it may block
    /// (the queue is empty; the next push wakes it), `false` when items are already waiting.
    func park() -> Bool {
        queue.withLock { queue in
            guard queue.batch.isEmpty else { return false }
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
    /// Two batches take turns: the one the host appends to is swapped for the batch emptied on
    /// the last pass, which keeps its capacity, so the host's pushes append into buffers already
    /// grown instead of growing fresh ones from nothing each pass (every doubling a new
    /// allocation and a copy of the items so far, on the host's thread). A batch larger than
    /// ``batchCapacityKept`` items (or ``batchBytesKept`` bytes) is let go after a burst rather
    /// than kept at that size for good.
    @discardableResult
    func drain(_ handle: (Batch) -> Void) -> Int {
        var batch = queue.withLock { queue -> Batch in
            var batch = Batch()
            swap(&batch, &queue.spare)
            swap(&batch, &queue.batch)
            return batch
        }
        let count = batch.items.count
        if count > 0 { handle(batch) }
        guard count <= Self.batchCapacityKept, batch.capacityBytes <= Self.batchBytesKept else { return count }
        batch.removeAll()
        queue.withLock { swap(&$0.spare, &batch) }
        return count
    }

    /// The largest batch whose buffer is kept for the next pass (a few milliseconds of a host at
    /// full speed).
    static let batchCapacityKept = 4096

    /// The most bytes of message text a batch kept for the next pass may hold.
    static let batchBytesKept = 4 * 1024 * 1024

    /// Stops accepting items; later pushes are dropped.
    func close() {
        queue.withLock { queue in
            queue.closed = true
            queue.batch = Batch()
            queue.spare = Batch()
            queue.memory.removeAll()
            queue.logged.removeAll()
        }
    }
}
