import DequeModule
import Foundation
import InspectorProtocol
import SocketSupport

/// One connected inspector client, owned by the agent thread.
///
/// Holds the client's socket, its input framer and its outgoing queue. The queue is bounded in
/// bytes: when a subscribed client falls behind, events are dropped for it and remembered as a
/// gap, which is reported (followed by a fresh snapshot) once the client has caught up.
final class AgentClient {
    enum Phase {
        /// Connected; the agent's hello is sent, the client's is awaited.
        case awaitingHello(deadline: Date)
        /// Handshake done.
        case ready(subscribed: Bool)
    }

    let id: Int
    let connection: UnixConnection
    var phase: Phase
    var framer: LineFramer
    var name = "unknown"
    var protocolErrors = 0
    var closeAfterFlush = false

    /// Frames read from the client and not yet handled, in order: the agent stops handling them
    /// while the client leaves too many of its frames unread (see ``acceptsInput(limit:)``).
    var unhandledFrames: Deque<LineFramer.Frame> = []
    private(set) var queue: Deque<[UInt8]> = []
    private var headOffset = 0
    private(set) var queuedBytes = 0
    /// Events not delivered to this client, `from...to`, while it was behind.
    private(set) var gap: ClosedRange<Int>?
    /// When the queue last made progress (or became non-empty).
    private(set) var lastProgress = Date()

    init(id: Int, connection: UnixConnection, handshakeDeadline: Date, maxFrameBytes: Int) {
        self.id = id
        self.connection = connection
        self.phase = .awaitingHello(deadline: handshakeDeadline)
        self.framer = LineFramer(maximumLineLength: maxFrameBytes)
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

    /// Queues a frame that must not be dropped (hello, replies, snapshots, gap markers).
    func enqueue(_ frame: [UInt8]) {
        if queue.isEmpty { lastProgress = Date() }
        queue.append(frame)
        queuedBytes += frame.count
    }

    /// Queues an event frame, or drops it into the gap when the client is behind.
    ///
    /// A frame is always accepted into an empty queue, whatever its size, so one large message
    /// still reaches a client that keeps up.
    func enqueueEvent(_ frame: [UInt8], seq: Int, limit: Int) {
        if let current = gap {
            gap = current.lowerBound...seq
            return
        }
        if !queue.isEmpty, queuedBytes + frame.count > limit {
            // Before dropping anything, hand the socket what it takes now: a reader that keeps
            // up must not miss events only because a burst arrived between two of the agent's
            // passes. A failed write is noticed (and the client dropped) by the next flush.
            _ = flush()
            if !queue.isEmpty, queuedBytes + frame.count > limit {
                gap = seq...seq
                return
            }
        }
        enqueue(frame)
    }

    /// Once a client in a gap has drained its queue: the gap to report, after which the caller
    /// queues the gap marker and a snapshot.
    func takeGapIfCaughtUp() -> ClosedRange<Int>? {
        guard let current = gap, queue.isEmpty else { return nil }
        gap = nil
        return current
    }

    /// Writes as much of the queue as the socket takes. Returns `false` when the peer is gone.
    func flush() -> Bool {
        while let head = queue.first {
            let result: UnixConnection.WriteResult
            do {
                result = try head.withUnsafeBytes { buffer in
                    try connection.write(UnsafeRawBufferPointer(rebasing: buffer[headOffset...]))
                }
            } catch {
                return false
            }
            switch result {
            case .written(let count):
                lastProgress = Date()
                headOffset += count
                queuedBytes -= count
                if headOffset >= head.count {
                    queue.removeFirst()
                    headOffset = 0
                }
            case .wouldBlock:
                return true
            }
        }
        return true
    }

    /// Whether the client has left a non-empty queue unread for longer than `seconds`.
    func isStalled(longerThan seconds: Double, now: Date) -> Bool {
        (!queue.isEmpty || gap != nil) && now.timeIntervalSince(lastProgress) > seconds
    }
}
