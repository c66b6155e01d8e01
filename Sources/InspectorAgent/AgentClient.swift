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
    /// Reached for every event frame queued, from the agent's one thread, and never lent out
    /// while reached again: unchecked, since a checked access of a class's property is a call
    /// into the runtime (as ``AgentCore``'s are).
    @exclusivity(unchecked) var phase: Phase
    var framer: LineFramer
    var name = "unknown"
    var protocolErrors = 0
    var closeAfterFlush = false

    /// Frames read from the client and not yet handled, in order: the agent stops handling them
    /// while the client leaves too many of its frames unread (see ``acceptsInput(limit:)``).
    var unhandledFrames: Deque<LineFramer.Frame> = []
    /// The frames waiting to be written and their accounting, reached once per call.
    /// Unchecked as ``phase`` is.
    @exclusivity(unchecked) private var outbox: ClientOutbox
    /// Bytes of every queued frame not yet written (for input back-pressure and memory accounting).
    var queuedBytes: Int { outbox.queuedBytes }
    /// Bytes of queued `.event` frames not yet written: the budget that decides a gap.
    var queuedEventBytes: Int { outbox.queuedEventBytes }
    /// Events not delivered to this client, `from...to`, while it was behind.
    var gap: ClosedRange<Int>? { outbox.gap }
    /// The most ``queuedEventBytes`` has been since the client connected or
    /// ``resetEventBacklogHighWater()`` last ran: how close it came to a gap.
    var eventBacklogHighWater: Int { outbox.eventBacklogHighWater }

    /// Starts ``eventBacklogHighWater`` again from what is queued now.
    func resetEventBacklogHighWater() {
        outbox.resetEventBacklogHighWater()
    }

    /// A client, connected at `now`, that must send its hello by `handshakeDeadline`, or, with
    /// `needsAuth` (TCP), its auth frame first by then.
    init(id: Int, output: any AgentOutput, now: Date, handshakeDeadline: Date, maxFrameBytes: Int, needsAuth: Bool = false) {
        self.id = id
        self.output = output
        self.outbox = ClientOutbox(now: now)
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

    var wantsToWrite: Bool { outbox.wantsToWrite }

    /// Whether the agent should read (and so answer) more of this client's frames: not while the
    /// client leaves at least `limit` bytes of replies unread, so a client that sends commands
    /// and never reads cannot make the host's memory grow.
    func acceptsInput(limit: Int) -> Bool { queuedBytes < limit }

    /// Queues a frame that must not be dropped (hello, replies, snapshots, gap markers). It does
    /// not count against the event budget.
    func enqueue(_ frame: [UInt8], now: Date) {
        outbox.enqueue(frame[...], now: now)
    }

    /// Queues an event frame, or drops it into the gap when the client is behind.
    ///
    /// The client is behind when its unread *events* would take more than `limit` bytes; what
    /// else is queued (a large snapshot it is still reading) does not count. A single event
    /// larger than `limit` is let through outside the budget, one at a time, so a client that
    /// keeps up receives it (and the events around it) instead of being told it fell behind.
    /// The events queued for a client therefore take at most `limit` bytes plus one frame (at
    /// most `WireProtocol.maxAgentFrameBytes`, whose bytes every client's queue shares). A frame
    /// may be part of a run's array (``AgentState/FrameRun``), which holds at most twice the
    /// bytes of the frames written in it alive.
    func enqueueEvent(_ frame: [UInt8], seq: Int, limit: Int, now: Date) {
        enqueueEvent(frame[...], seq: seq, limit: limit, now: now)
    }

    /// Queues an event frame that is part of an array (as ``enqueueEvent(_:seq:limit:now:)-([UInt8])``).
    func enqueueEvent(_ frame: ArraySlice<UInt8>, seq: Int, limit: Int, now: Date) {
        if outbox.enqueueEventWithoutWriting(frame, seq: seq, limit: limit, now: now) { return }
        outbox.enqueueEventAfterWriting(frame, seq: seq, limit: limit, now: now, output: output)
    }

    /// Queues every frame of `run`, in order, as ``enqueueEvent(_:seq:limit:now:)-(ArraySlice<UInt8>)``
    /// queues each: a client's share of a run in one call.
    func enqueueEvents(of run: AgentState.FrameRun, limit: Int, now: Date) {
        run.forEachFrame { frame, seq in
            enqueueEvent(frame, seq: seq, limit: limit, now: now)
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
        outbox.takeGapIfCaughtUp()
    }

    /// Writes as much of the queue as the output takes now. Returns `false` when the peer is gone.
    ///
    /// Frames smaller than `ClientOutbox.gatherBytes` are written together in one gathering
    /// write, none copied: a batch of events costs one system call per client, not one per frame.
    func flush(now: Date) -> Bool {
        outbox.flush(to: output, now: now)
    }

    /// Whether the client has left a non-empty queue unread for longer than `seconds`.
    func isStalled(longerThan seconds: Double, now: Date) -> Bool {
        guard let deadline = stallDeadline(after: seconds) else { return false }
        return now > deadline
    }

    /// The instant after which this client counts as stalled (if it reads nothing until then),
    /// or nil while it has nothing unread.
    func stallDeadline(after seconds: Double) -> Date? {
        outbox.stallDeadline(after: seconds)
    }
}
