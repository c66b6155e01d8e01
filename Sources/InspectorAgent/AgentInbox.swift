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
        /// A message a host received, handed over as a value with its time and cause
        /// (``pushReceived(_:time:tag:)``): ``Batch/forEach(traffic:other:)`` encodes it on the
        /// agent's thread and hands over the traffic record the host would have reported, in its
        /// place, so nothing after the batch sees this item.
        case received(BridgeMessage, time: Date, tag: CommandTag?)
        /// Messages that crossed the bridge with nothing but their direction and time to say:
        /// the next `count` records of the batch's ``Batch/traffic`` (``Batch/forEach(traffic:other:)``
        /// hands them over in their place among the other items).
        case traffic(count: Int)
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
        /// The message logged last in the change's direction was handed over as a value
        /// (``Item/received(_:time:tag:)``): ``Batch/forEach(traffic:other:)`` compares it with the
        /// change's message on the agent's thread, which keeps it, and sets ``isLastReceived`` or
        /// ``isLastLogged`` instead of this.
        var isLastReceivedEncoded = false

        /// Whether the message logged last, whose JSON this carries, is `message`: it reads as
        /// a message equal to it. Called on the agent's thread; `false` without the JSON.
        func logged(is message: BridgeMessage) -> Bool {
            guard let lastLoggedJSON, let logged = try? BridgeMessageCodec().decode(lastLoggedJSON).get() else { return false }
            return logged == message
        }
    }

    /// What one ``drain(_:)`` hands the agent: the changes and replies, oldest first, and the plain
    /// traffic records among them, whose direction, time and bytes are in ``traffic`` (a
    /// ``TrafficArena``). Nothing in a record is reference-counted, so the host's thread and the
    /// agent's never touch the same object for it (every retain and release of a shared object
    /// is an atomic operation on a cache line both threads use).
    ///
    /// A plain record costs the host's thread no item of its own: consecutive records are one
    /// ``Item/traffic(count:)`` item, written only when another item follows them (or counted in
    /// ``trailingTraffic`` at the end). Read a batch with ``forEach(traffic:other:)``.
    struct Batch {
        /// The message the agent's thread encoded last (``Item/received(_:time:tag:)``): the
        /// inbox's, set by ``AgentInbox/drain(_:)`` for the batch it hands over.
        fileprivate(set) var received: ReceivedOnAgentThread?
        /// The items other than plain traffic, and runs of plain traffic records, oldest first.
        private(set) var items: [Item] = []
        /// The plain traffic records' headers and bytes.
        private(set) var traffic = TrafficArena()
        /// Plain records appended after the last item of ``items``, not marked in it yet.
        private(set) var trailingTraffic = 0
        /// Items in ``items`` that are not runs of traffic records.
        private var otherItems = 0

        var isEmpty: Bool { otherItems == 0 && traffic.isEmpty }

        /// Every change and reply in the batch: its items other than runs, and its plain records.
        var count: Int { otherItems + traffic.count }

        /// Appends an item (not ``Item/traffic(count:)``, which the batch writes itself). The item
        /// is consumed, moved into the batch: taken as borrowed, it was copied (every reference in
        /// a change retained, and released again by the caller).
        @inline(__always)
        mutating func append(_ item: consuming Item) {
            if trailingTraffic > 0 {
                items.append(.traffic(count: trailingTraffic))
                trailingTraffic = 0
            }
            items.append(item)
            otherItems += 1
        }

        /// Appends a plain traffic record of `json` (at most ``TrafficArena/maxMessageBytes``).
        mutating func appendTraffic(_ direction: TrafficRecord.Direction, time: Date, json: UnsafeRawBufferPointer) {
            traffic.append(direction, time: time, json: json)
            trailingTraffic += 1
        }

        /// Calls `traffic` with each plain record and `other` with each other item, in the order
        /// they were appended. A message handed over as a value (``Item/received(_:time:tag:)``)
        /// is encoded here and handed over as the record the host would have reported: a plain
        /// record to `traffic`, or a whole change to `other`.
        func forEach(traffic: (TrafficArena.Record) throws -> Void, other: (Item) throws -> Void) rethrows {
            var offset = 0
            try items.withUnsafeBufferPointer { items in
                for index in items.indices {
                    if case .traffic(let count) = items[index] {
                        try self.traffic.forEach(from: &offset, count: count, traffic)
                    } else {
                        try hand(items[index], traffic: traffic, other: other)
                    }
                }
            }
            try self.traffic.forEach(from: &offset, count: trailingTraffic, traffic)
        }

        /// Hands over an item other than a run of plain records: a received message encoded
        /// (``hand(received:time:tag:memory:traffic:other:)``), a change whose links the agent's
        /// thread answers with them set, anything else as it is. Kept out of ``forEach(traffic:other:)``
        /// (never inlined), so that the walk over the runs of plain records, nearly all a native
        /// host's batch, stays as small as it was.
        @inline(never)
        private func hand(_ item: Item, traffic: (TrafficArena.Record) throws -> Void, other: (Item) throws -> Void) rethrows {
            switch item {
            case .received(let message, let time, let tag):
                try Self.hand(received: message, time: time, tag: tag, memory: received, traffic: traffic, other: other)
            case .change(let change, let tag, var links) where links.isLastReceivedEncoded:
                links.isLastReceivedEncoded = false
                let last = received?.message
                switch change {
                case .pendingAdded(let request): links.isLastReceived = last == request.message
                case .held(let held): links.isLastLogged = last == held.message
                default: break
                }
                try other(.change(change, tag: tag, links: links))
            default:
                try other(item)
            }
        }

        /// Encodes a message the host received (BridgeCore's codec: the bytes the host would have
        /// reported) and hands over its record: plain, as bytes, when nobody caused it and it is
        /// not too large (as ``AgentInbox/push(_:tag:causedByRunningCommand:)`` appends such a
        /// record), otherwise whole. One the codec cannot encode is not logged, as before the
        /// encoding moved here, and is not remembered as the last one received.
        private static func hand(
            received message: BridgeMessage, time: Date, tag: CommandTag?, memory: ReceivedOnAgentThread?,
            traffic: (TrafficArena.Record) throws -> Void, other: (Item) throws -> Void
        ) rethrows {
            guard let json = try? BridgeMessageCodec().encode(message) else { return }
            memory?.message = message
            guard tag == nil, json.count <= AgentInbox.compactMessageLimit else {
                try other(.change(.traffic(TrafficRecord(direction: .received, message: message, json: json, time: time)), tag: tag))
                return
            }
            try json.withUnsafeBytes { bytes in
                let room = TrafficArena.recordBytes(messageBytes: bytes.count)
                try traffic(TrafficArena.Record(direction: .received, time: time, json: bytes, runLeft: TrafficArena.RunLeft(bytes: room, records: 1)))
            }
        }

        mutating func removeAll() {
            items.removeAll(keepingCapacity: true)
            traffic.removeAll()
            trailingTraffic = 0
            otherItems = 0
        }

        /// Bytes of message text, by capacity (the items are bounded by their number).
        var capacityBytes: Int { traffic.capacityBytes }

        /// Hands over the arrays of the batch's largest messages (``TrafficArena/takeOwnBuffers()``),
        /// each referenced only by the result, so that the agent writes their frames in place.
        mutating func takeOwnBuffers() -> [[UInt8]] {
            traffic.takeOwnBuffers()
        }
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

        /// Appends a traffic record to the batch's ``Batch/traffic``, unless its message is larger
        /// than ``AgentInbox/compactMessageLimit``: then returns `false`, having appended
        /// nothing. The bytes are reached once (each look into `Data`'s storage is an exclusivity
        /// check), or not at all when the host lent them (`lent`, which must be `json`'s bytes).
        mutating func appendCompact(_ direction: TrafficRecord.Direction, json: Data, lent: UnsafeRawBufferPointer? = nil, time: Date) -> Bool {
            if let lent { return appendCompact(direction, bytes: lent, time: time) }
            return json.withUnsafeBytes { appendCompact(direction, bytes: $0, time: time) }
        }

        /// ``appendCompact(_:json:lent:time:)`` of the message's bytes.
        private mutating func appendCompact(_ direction: TrafficRecord.Direction, bytes: UnsafeRawBufferPointer, time: Date) -> Bool {
            guard bytes.count <= AgentInbox.compactMessageLimit else { return false }
            batch.appendTraffic(direction, time: time, json: bytes)
            return true
        }
    }

    private let queue = Locked(Queue())
    let wakePipe: WakePipe
    /// The message the agent's thread encoded last; touched only there (``drain(_:)``).
    private let received = ReceivedOnAgentThread()

    init() throws {
        wakePipe = try WakePipe()
    }

    /// The largest message handed over as bytes; larger ones (whose records leave their data
    /// out) keep the whole change.
    static let compactMessageLimit = min(WireProtocol.maxAgentFrameBytes - 64 * 1024, TrafficArena.maxMessageBytes)

    /// Called on the host's main actor: a non-blocking append.
    func push(_ item: Item) {
        enqueue { $0.batch.append(item) }
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
    /// over as a record in the batch's ``TrafficArena``; any other change as it is, with its ``Links``.
    func push(_ change: BridgeChange, tag: CommandTag? = nil, causedByRunningCommand: Bool = false) {
        switch change {
        case .traffic(let record):
            enqueue { queue in
                queue.memory.note(record.direction, record.message)
                // The tag is looked at, not copied, on the hot path.
                let caused = causedByRunningCommand ? queue.isRunning : tag != nil
                if !caused, Self.isPlain(record), queue.appendCompact(record.direction, json: record.json, time: record.time) { return }
                queue.batch.append(.change(.traffic(record), tag: causedByRunningCommand ? queue.running : tag))
            }
        default:
            enqueue { queue in
                let tag = causedByRunningCommand ? queue.running : tag
                queue.batch.append(.change(change, tag: tag, links: queue.memory.links(of: change)))
            }
        }
    }

    /// Called on the host's main actor with a message the host received, as a value
    /// (``InspectionSink/reportReceived(_:at:causedBy:)``): appended as it is, for the agent's
    /// thread to encode (``Item/received(_:time:tag:)``). Nothing is encoded, copied or compared
    /// here.
    func pushReceived(_ message: BridgeMessage, time: Date, tag: CommandTag?) {
        enqueue { queue in
            queue.memory.note(.received, .encodedOnAgentThread)
            queue.batch.append(.received(message, time: time, tag: tag))
        }
    }

    /// Called on the host's main actor with a plain record of a message the host sent, as its
    /// text (``InspectionSink/reportSent(json:at:)``): its UTF-8 bytes are copied into the batch's
    /// ``TrafficArena``, as a native host's are, and the text is kept (a reference) for a later
    /// change that asks whether it names this message. A text longer than
    /// ``compactMessageLimit`` (which its caller does not hand over) is read and reported whole.
    func pushSent(json: String, time: Date) {
        var text = json
        text.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            enqueue { queue in
                if bytes.count <= Self.compactMessageLimit {
                    queue.memory.note(.sent, .text(json))
                    queue.batch.appendTraffic(.sent, time: time, json: bytes)
                } else if let message = try? BridgeMessageCodec().decode(Data(bytes)).get() {
                    // Not reached: the adapter hands over only texts within this limit
                    // (`InspectionSink.plainSentLimit`) and reads a larger report whole itself.
                    assertionFailure("a sent text of \(bytes.count) bytes, over compactMessageLimit, was handed over")
                    queue.memory.note(.sent, .message(message))
                    queue.batch.append(.change(.traffic(TrafficRecord(direction: .sent, message: message, json: Data(bytes), time: time)), tag: nil))
                }
            }
        }
    }

    /// Called on the host's main actor with every change but traffic from a native host
    /// (`BridgeHost.addPackageObserver(_:)`), caused by the command running now if any, and
    /// whether the host said it is about the message logged last (``LoggedJSON``).
    func pushCausedByRunning(_ change: BridgeChange, isLastLogged: Bool) {
        enqueue { queue in
            let tag = queue.isRunning ? queue.running : nil
            queue.batch.append(.change(change, tag: tag, links: queue.logged.links(of: change, isLastLogged: isLastLogged)))
        }
    }

    /// Called on the host's main actor with every message that crosses a native host, in pieces
    /// (`BridgeHost.addPackageObserver(_:)`), caused by the command running now if any: what
    /// ``push(_:tag:causedByRunningCommand:)`` does with its traffic record, without the record
    /// unless it goes the whole way. `lent` is `json`'s bytes when the host lent them for the call
    /// (a received message); the record is copied from them then, not from `json`'s storage.
    func pushTraffic(
        _ direction: TrafficRecord.Direction, _ message: BridgeMessage, json: Data, lent: UnsafeRawBufferPointer? = nil, time: Date,
        marks: TrafficMarks
    ) {
        enqueue { queue in
            queue.logged.note(direction, json)
            // The flag is tested, and the tag copied only for a record a command caused.
            // The marks' fields are tested here: `TrafficMarks.isEmpty`, from BridgeCore, stayed a
            // call (about 26 instructions a message).
            if !queue.isRunning, marks.deliveryError == nil, marks.hold == nil, marks.fault == nil,
                queue.appendCompact(direction, json: json, lent: lent, time: time)
            {
                return
            }
            let record = TrafficRecord(
                direction: direction, message: message, json: json, time: time, deliveryError: marks.deliveryError,
                hold: marks.hold, fault: marks.fault)
            queue.batch.append(.change(.traffic(record), tag: queue.running))
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
    /// and returns how many changes and replies there were (`handle` is not called for none).
    /// `handle` may take the batch's largest messages out of it (``Batch/takeOwnBuffers()``).
    ///
    /// Two batches take turns: the one the host appends to is swapped for the batch emptied on
    /// the last pass, which keeps its capacity, so the host's pushes append into buffers already
    /// grown instead of growing fresh ones from nothing each pass (every doubling a new
    /// allocation and a copy of the items so far, on the host's thread). A batch of more than
    /// ``batchCapacityKept`` items (other items and runs of plain records: the records
    /// themselves are bounded by ``batchBytesKept`` bytes) is let go after a burst rather than
    /// kept at that size for good.
    @discardableResult
    func drain(_ handle: (inout Batch) -> Void) -> Int {
        var batch = queue.withLock { queue -> Batch in
            var batch = Batch()
            swap(&batch, &queue.spare)
            swap(&batch, &queue.batch)
            return batch
        }
        let count = batch.count
        batch.received = received
        if count > 0 { handle(&batch) }
        guard batch.items.count <= Self.batchCapacityKept, batch.capacityBytes <= Self.batchBytesKept else { return count }
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

/// The message the agent's thread last encoded for a host that hands its received messages over
/// as values (``AgentInbox/Item/received(_:time:tag:)``), kept there to answer the questions
/// ``TrafficMemory`` leaves to it (``AgentInbox/Links/isLastReceivedEncoded``). Read and written
/// only on the agent's thread, inside ``AgentInbox/drain(_:)``: the host's thread never touches it.
final class ReceivedOnAgentThread: @unchecked Sendable {
    var message: BridgeMessage?
}
