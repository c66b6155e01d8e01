import DequeModule
import Foundation
import SocketSupport

/// One client's outgoing frames and their accounting: what ``AgentClient`` queues and writes.
///
/// A value of its own, not stored properties of the client object, for speed: every access to a
/// class's stored property is checked for exclusivity at run time (a call into the runtime each),
/// and queueing an event or writing a batch touched half a dozen of them per frame. The client
/// keeps one of these and reaches it once per call.
///
/// Only the *events* in the queue are bounded (in bytes): when a subscribed client has a whole
/// budget of events unread, later events are dropped for it and remembered as a gap
/// (``AgentClient``'s documentation says why).
struct ClientOutbox {
    /// One frame waiting to be written, and how it counts.
    struct QueuedFrame {
        enum Kind {
            /// Hello, reply, snapshot or gap marker: never dropped, not in the event budget.
            case control
            /// An event, counted in the event budget.
            case event
            /// An event larger than the whole budget, let through outside it (one at a time).
            case oversizedEvent
        }

        /// The frame: a whole array, or part of one (a frame written in its message's own array,
        /// ``TrafficEventFrame/inPlace(_:seq:direction:time:)``).
        var bytes: ArraySlice<UInt8>
        var kind: Kind
    }

    private(set) var queue: Deque<QueuedFrame> = []
    private var headOffset = 0
    /// Bytes of every queued frame not yet written (for input back-pressure and memory accounting).
    private(set) var queuedBytes = 0
    /// Bytes of queued `.event` frames not yet written: the budget that decides a gap.
    private(set) var queuedEventBytes = 0
    /// The most ``queuedEventBytes`` has been since the outbox was made or
    /// ``resetEventBacklogHighWater()`` last ran: how close the client came to a gap (the
    /// benchmarks' margin, issue 30). One compare per event queued.
    private(set) var eventBacklogHighWater = 0
    /// Whether an `.oversizedEvent` is in the queue.
    private var oversizedEventQueued = false
    /// Events not delivered to this client, `from...to`, while it was behind.
    private(set) var gap: ClosedRange<Int>?
    /// When the queue last made progress (or became non-empty).
    private(set) var lastProgress: Date
    /// Whether the last write found the output full.
    private var outputWasFull = false

    /// An empty outbox, as of `now`.
    init(now: Date) {
        lastProgress = now
    }

    var wantsToWrite: Bool { !queue.isEmpty }

    /// Queues a frame that must not be dropped (hello, replies, snapshots, gap markers).
    mutating func enqueue(_ frame: ArraySlice<UInt8>, now: Date) {
        append(QueuedFrame(bytes: frame, kind: .control), now: now)
    }

    /// Queues an event frame, or drops it into the gap when the client is behind (see
    /// ``AgentClient/enqueueEvent(_:seq:limit:now:)``), as far as that needs no writing: extends
    /// the gap, or queues a frame that fits. Returns `false`, having done nothing, when the frame
    /// does not fit; then ``enqueueEventAfterWriting(_:seq:limit:now:output:)`` goes on. In two
    /// steps so that the usual case is not handed the output (an existential, retained and
    /// released for every frame and client).
    mutating func enqueueEventWithoutWriting(_ frame: ArraySlice<UInt8>, seq: Int, limit: Int, now: Date) -> Bool {
        if let current = gap {
            gap = current.lowerBound...seq
            return true
        }
        guard let kind = admission(of: frame.count, limit: limit) else { return false }
        append(QueuedFrame(bytes: frame, kind: kind), now: now)
        return true
    }

    /// The second step of queueing an event, for a frame that did not fit
    /// (``enqueueEventWithoutWriting(_:seq:limit:now:)``): before dropping anything, writes what
    /// `output` takes now, then queues the frame if it fits, or opens a gap.
    mutating func enqueueEventAfterWriting(_ frame: ArraySlice<UInt8>, seq: Int, limit: Int, now: Date, output: any AgentOutput) {
        // Before dropping anything, hand the socket what it takes now: a reader that keeps up
        // must not miss events only because a burst arrived between two of the agent's passes.
        // A failed write is noticed (and the client dropped) by the next flush.
        _ = flush(to: output, now: now)
        if let kind = admission(of: frame.count, limit: limit) {
            append(QueuedFrame(bytes: frame, kind: kind), now: now)
        } else {
            gap = seq...seq
        }
    }

    /// How an event of `size` bytes is queued now, or nil when it does not fit.
    private func admission(of size: Int, limit: Int) -> QueuedFrame.Kind? {
        if size > limit { return oversizedEventQueued ? nil : .oversizedEvent }
        return queuedEventBytes + size <= limit ? .event : nil
    }

    private mutating func append(_ frame: QueuedFrame, now: Date) {
        // An empty frame would never be written off the head (a write of it takes nothing, and
        // `flush` would try again for ever). None is queued today, since every frame ends in a
        // newline; refused here so that none ever can be.
        guard !frame.bytes.isEmpty else { return }
        if queue.isEmpty { lastProgress = now }
        queuedBytes += frame.bytes.count
        switch frame.kind {
        case .control: break
        case .event:
            queuedEventBytes += frame.bytes.count
            if queuedEventBytes > eventBacklogHighWater { eventBacklogHighWater = queuedEventBytes }
        case .oversizedEvent: oversizedEventQueued = true
        }
        queue.append(frame)
    }

    /// Starts ``eventBacklogHighWater`` again from what is queued now.
    mutating func resetEventBacklogHighWater() {
        eventBacklogHighWater = queuedEventBytes
    }

    /// Once a client in a gap has drained its queue: the gap to report.
    mutating func takeGapIfCaughtUp() -> ClosedRange<Int>? {
        guard let current = gap, queue.isEmpty else { return nil }
        gap = nil
        return current
    }

    /// Writes as much of the queue as `output` takes now. Returns `false` when the peer is gone.
    ///
    /// Frames smaller than ``gatherBytes`` are written together, in one gathering write (their
    /// bytes handed over where they are, none copied): a batch of events costs one system call
    /// per client, not one per frame. A larger frame is written alone, and so is the head alone
    /// while the output last took nothing (a client that does not read costs one small write on
    /// every pass).
    mutating func flush(to output: any AgentOutput, now: Date) -> Bool {
        while !queue.isEmpty {
            let result: UnixConnection.WriteResult
            do {
                let gathered = !outputWasFull && queue.count > 1 ? gatheredCount() : 1
                if gathered > 1 {
                    result = try withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: gathered) { parts in
                        try lend(0, into: parts, output)
                    }
                } else {
                    let offset = headOffset
                    result = try queue[0].bytes.withUnsafeBytes { buffer in
                        try output.write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                    }
                }
            } catch {
                return false
            }
            switch result {
            case .written(let count):
                lastProgress = now
                outputWasFull = false
                consume(count)
            case .wouldBlock:
                outputWasFull = true
                return true
            }
        }
        return true
    }

    /// The most bytes gathered into one write.
    static let gatherBytes = 64 * 1024
    /// The most frames gathered into one write (below `IOV_MAX`, 1,024).
    static let maxGatheredFrames = 256

    /// How many frames from the head on one gathering write takes: the unwritten rest of the head
    /// and as many whole frames after it as fit in ``gatherBytes``, at most ``maxGatheredFrames``;
    /// 1 when the head's rest alone is ``gatherBytes`` or more (it is written alone).
    private func gatheredCount() -> Int {
        var total = queue[0].bytes.count - headOffset
        guard total < Self.gatherBytes else { return 1 }
        var count = 1
        let limit = min(queue.count, Self.maxGatheredFrames)
        while count < limit {
            total += queue[count].bytes.count
            guard total <= Self.gatherBytes else { break }
            count += 1
        }
        return count
    }

    /// Makes the gathering write of the first `parts.count` frames: puts frame `index`'s bytes
    /// (the head's from ``headOffset`` on) in `parts[index]`, and, while they are lent, the next
    /// frame's, and so on; the last one makes the write. Nested, so that every frame's bytes
    /// stay valid until the write returns.
    private func lend(
        _ index: Int, into parts: UnsafeMutableBufferPointer<UnsafeRawBufferPointer>, _ output: any AgentOutput
    ) throws -> UnixConnection.WriteResult {
        guard index < parts.count else { return try output.write(gathering: UnsafeBufferPointer(parts)) }
        let skip = index == 0 ? headOffset : 0
        return try queue[index].bytes.withUnsafeBytes { bytes in
            parts[index] = UnsafeRawBufferPointer(rebasing: bytes[skip...])
            return try lend(index + 1, into: parts, output)
        }
    }

    /// Accounts for `count` bytes written from the head of the queue on, across frames.
    private mutating func consume(_ count: Int) {
        var left = count
        while left > 0, let head = queue.first {
            let taken = min(left, head.bytes.count - headOffset)
            left -= taken
            headOffset += taken
            queuedBytes -= taken
            if head.kind == .event { queuedEventBytes -= taken }
            if headOffset >= head.bytes.count {
                if head.kind == .oversizedEvent { oversizedEventQueued = false }
                queue.removeFirst()
                headOffset = 0
            }
        }
    }

    /// The instant after which this client counts as stalled (if it reads nothing until then),
    /// or nil while it has nothing unread.
    func stallDeadline(after seconds: Double) -> Date? {
        (!queue.isEmpty || gap != nil) ? lastProgress.addingTimeInterval(seconds) : nil
    }
}
