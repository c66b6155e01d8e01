import DequeModule
import Foundation
import InspectorProtocol
import SocketSupport

/// One connected inspector client, owned by the agent's core.
///
/// Holds where the client's bytes go (its ``AgentOutput``: a socket, or an in-memory connection
/// in tests), its input framer and its outgoing queue. It reads no clock: the core passes the
/// time in. Only the *events* in the
/// queue are bounded (in bytes): when a subscribed client has a whole budget of events unread,
/// later events are dropped for it and remembered as a gap, which is reported (followed by a
/// fresh snapshot) once the client has caught up.
///
/// Snapshots, replies, hellos and gap markers are never dropped and do not use the event budget.
/// That is what makes attaching to a busy host work: a snapshot larger than the budget (a full
/// 32 MiB log) is written once, and the events that arrive meanwhile queue behind it within their
/// own budget, instead of each being taken for "the client fell behind" (which brought another
/// full snapshot after the gap, and so on for ever). The design is in docs/inspector-protocol.md,
/// section 6.
final class AgentClient {
    enum Phase {
        /// Connected over TCP; nothing is sent until the first line carries the token.
        case awaitingAuth(deadline: Date)
        /// Over TCP, the token was judged wrong: `error` is sent at `at` (refusals are paced;
        /// ``AgentAuthGate``). Until then nothing is sent and what the client sends is discarded.
        case refusing(at: Date, error: InspectorError)
        /// Over TCP, the auth was refused: the error is being flushed, nothing else is read.
        case refused
        /// Connected; the agent's hello is sent, the client's is awaited.
        case awaitingHello(deadline: Date)
        /// Handshake done.
        case ready(subscribed: Bool)
    }

    let id: Int
    let output: any AgentOutput
    var phase: Phase
    var framer: LineFramer
    var name = "unknown"
    var protocolErrors = 0
    var closeAfterFlush = false

    /// Frames read from the client and not yet handled, in order: the agent stops handling them
    /// while the client leaves too many of its frames unread (see ``acceptsInput(limit:)``).
    var unhandledFrames: Deque<LineFramer.Frame> = []
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

        var bytes: [UInt8]
        var kind: Kind
    }

    private(set) var queue: Deque<QueuedFrame> = []
    private var headOffset = 0
    /// Bytes of every queued frame not yet written (for input back-pressure and memory accounting).
    private(set) var queuedBytes = 0
    /// Bytes of queued `.event` frames not yet written: the budget that decides a gap.
    private(set) var queuedEventBytes = 0
    /// Whether an `.oversizedEvent` is in the queue.
    private var oversizedEventQueued = false
    /// Events not delivered to this client, `from...to`, while it was behind.
    private(set) var gap: ClosedRange<Int>?
    /// When the queue last made progress (or became non-empty).
    private(set) var lastProgress: Date

    /// A client, connected at `now`, that must send its hello by `handshakeDeadline`, or, with
    /// `needsAuth` (TCP), its auth frame first by then.
    init(id: Int, output: any AgentOutput, now: Date, handshakeDeadline: Date, maxFrameBytes: Int, needsAuth: Bool = false) {
        self.id = id
        self.output = output
        self.lastProgress = now
        self.phase = needsAuth ? .awaitingAuth(deadline: handshakeDeadline) : .awaitingHello(deadline: handshakeDeadline)
        self.framer = LineFramer(maximumLineLength: maxFrameBytes)
    }

    /// Whether this is a TCP client that has not authenticated: its token not sent yet, or
    /// judged wrong and its refusal not sent yet. Such clients take the few places of
    /// ``AgentLimits/maxClientsAwaitingAuth``.
    var isAwaitingAuth: Bool {
        switch phase {
        case .awaitingAuth, .refusing: return true
        case .refused, .awaitingHello, .ready: return false
        }
    }

    /// Whether this TCP client's token was judged wrong and its refusal waits for its time.
    var isRefusing: Bool {
        if case .refusing = phase { return true }
        return false
    }

    var isSubscribed: Bool {
        if case .ready(let subscribed) = phase { return subscribed }
        return false
    }

    var wantsToWrite: Bool { !queue.isEmpty }

    /// Whether the agent should read (and so answer) more of this client's frames: not while the
    /// client leaves at least `limit` bytes of replies unread, so a client that sends commands
    /// and never reads cannot make the host's memory grow.
    func acceptsInput(limit: Int) -> Bool { queuedBytes < limit }

    /// Queues a frame that must not be dropped (hello, replies, snapshots, gap markers). It does
    /// not count against the event budget.
    func enqueue(_ frame: [UInt8], now: Date) {
        append(QueuedFrame(bytes: frame, kind: .control), now: now)
    }

    /// Queues an event frame, or drops it into the gap when the client is behind.
    ///
    /// The client is behind when its unread *events* would take more than `limit` bytes; what
    /// else is queued (a large snapshot it is still reading) does not count. A single event
    /// larger than `limit` is let through outside the budget, one at a time, so a client that
    /// keeps up receives it (and the events around it) instead of being told it fell behind.
    /// The events queued for a client therefore take at most `limit` bytes plus one frame (at
    /// most `WireProtocol.maxAgentFrameBytes`, whose bytes every client's queue shares).
    func enqueueEvent(_ frame: [UInt8], seq: Int, limit: Int, now: Date) {
        if let current = gap {
            gap = current.lowerBound...seq
            return
        }
        if let kind = admission(of: frame.count, limit: limit) {
            append(QueuedFrame(bytes: frame, kind: kind), now: now)
            return
        }
        // Before dropping anything, hand the socket what it takes now: a reader that keeps up
        // must not miss events only because a burst arrived between two of the agent's passes.
        // A failed write is noticed (and the client dropped) by the next flush.
        _ = flush(now: now)
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

    private func append(_ frame: QueuedFrame, now: Date) {
        if queue.isEmpty { lastProgress = now }
        queue.append(frame)
        queuedBytes += frame.bytes.count
        switch frame.kind {
        case .control: break
        case .event: queuedEventBytes += frame.bytes.count
        case .oversizedEvent: oversizedEventQueued = true
        }
    }

    /// Bytes this client makes the agent hold: its queue, the unfinished line it is sending (the
    /// framer's buffer, by capacity) and the frames read from it but not yet handled.
    var heldBytes: Int {
        queuedBytes + framer.bufferedCapacity + unhandledFrames.reduce(0) { total, frame in
            if case .line(let line) = frame { return total + line.count }
            return total
        }
    }

    /// Once a client in a gap has drained its queue: the gap to report, after which the caller
    /// queues the gap marker and a snapshot.
    func takeGapIfCaughtUp() -> ClosedRange<Int>? {
        guard let current = gap, queue.isEmpty else { return nil }
        gap = nil
        return current
    }

    /// Writes as much of the queue as the output takes now. Returns `false` when the peer is gone.
    ///
    /// Frames smaller than ``gatherBytes`` are gathered into one buffer and written together: a
    /// batch of events costs one `write` per client, not one per frame. A larger frame is written
    /// from its own bytes, and so is the head alone while the output last took nothing (a client
    /// that does not read costs no copying on every pass).
    func flush(now: Date) -> Bool {
        // Only for this call: a buffer kept would be memory held for every client.
        var gathered: [UInt8] = []
        while let head = queue.first {
            let result: UnixConnection.WriteResult
            do {
                if !outputWasFull, queue.count > 1, head.bytes.count - headOffset < Self.gatherBytes {
                    gatherHead(into: &gathered)
                    result = try gathered.withUnsafeBytes { try output.write($0) }
                } else {
                    result = try head.bytes.withUnsafeBytes { buffer in
                        try output.write(UnsafeRawBufferPointer(rebasing: buffer[headOffset...]))
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

    /// Whether the last write found the output full.
    private var outputWasFull = false

    /// The most bytes gathered into one write.
    static let gatherBytes = 64 * 1024

    /// Copies the unwritten rest of the head and the frames after it into `gathered`, as many
    /// whole frames as fit in ``gatherBytes`` (the head always).
    private func gatherHead(into gathered: inout [UInt8]) {
        if gathered.capacity == 0 { gathered.reserveCapacity(Self.gatherBytes) }
        gathered.removeAll(keepingCapacity: true)
        for (index, frame) in queue.enumerated() {
            if index == 0 {
                gathered.append(contentsOf: frame.bytes[headOffset...])
            } else {
                guard gathered.count + frame.bytes.count <= Self.gatherBytes else { break }
                gathered.append(contentsOf: frame.bytes)
            }
        }
    }

    /// Accounts for `count` bytes written from the head of the queue on, across frames.
    private func consume(_ count: Int) {
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

    /// Whether the client has left a non-empty queue unread for longer than `seconds`.
    func isStalled(longerThan seconds: Double, now: Date) -> Bool {
        guard let deadline = stallDeadline(after: seconds) else { return false }
        return now > deadline
    }

    /// The instant after which this client counts as stalled (if it reads nothing until then),
    /// or nil while it has nothing unread.
    func stallDeadline(after seconds: Double) -> Date? {
        (!queue.isEmpty || gap != nil) ? lastProgress.addingTimeInterval(seconds) : nil
    }
}
