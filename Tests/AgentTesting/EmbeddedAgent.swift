// The agent's core driven in memory, for every test target (as swift-nio ships NIOEmbedded).
// It reaches the core through `@testable import`, which only a debug build allows (SwiftPM builds
// every module for testing there, and tests only run there): a release build of all targets
// compiles this target empty.
#if DEBUG
import BridgeCore
import Foundation
@testable import InspectorAgent
import SocketSupport
import TestSupport

/// The agent's core (``AgentCore``) driven without sockets, threads or a real clock, in the
/// manner of swift-nio's `EmbeddedChannel`: a test writes a client's bytes in, runs the agent,
/// reads the agent's bytes out, and moves time on with ``advanceTime(by:)``. Nothing happens
/// between two calls, so what a test sees does not depend on how busy the machine is, and a
/// time limit of minutes is crossed in a microsecond. The host's own timers (a hold's time
/// limit) sleep on ``clock``, which ``advanceTime(by:)`` moves too.
///
/// ```swift
/// let agent = try EmbeddedAgent()
/// defer { agent.stop() }
/// let client = agent.connect()
/// client.sendHello()
/// agent.run()
/// let lines = try client.readLines()           // the hello and the snapshot
/// agent.receive(request)                       // the journey sends; the agent reports it
/// ```
///
/// It serves a fresh `BridgeHost` natively (``init(limits:name:clock:prepare:)``) or any other
/// `InspectableHost`, such as the GBGBridge adapter
/// (``init(serving:over:journey:limits:name:clock:)``).
///
/// It does what ``AgentLoop`` (the poll driver) does on each pass, in the same order: take the
/// host's changes from the inbox, read what the core wants read (at most 16 reads of
/// `AgentLoop.readChunkBytes` per connection), then ``AgentCore/service(now:)``, and close what the
/// core gave up. The host is a real `BridgeHost` on the main actor, observed exactly as
/// ``InspectorAgent`` observes it; commands the core does not answer itself run there, and
/// their replies come back on a later ``run()``.
@MainActor
public final class EmbeddedAgent {
    /// The bridge host: the one served, or the one under the host served.
    public let host: BridgeHost
    /// What the host delivers to the journey.
    public let journey: RecordingJourneyTransport
    public let limits: AgentLimits
    /// The clock the host's timers sleep on (``BridgeHost/clock``); ``advanceTime(by:)`` moves it.
    public let clock: ManualClock
    /// The TCP token's gate when the agent takes TCP connections.
    let gate: AgentAuthGate?
    private let inbox: AgentInbox
    private let core: AgentCore
    private let reporting: any InspectionReporting
    private var connections: [Int: EmbeddedConnection] = [:]
    private var nextConnectionId = 0
    /// The agent's clock: starts at a fixed instant and moves only with ``advanceTime(by:)``
    /// (near the reference date, where a `Date` keeps sub-nanosecond precision).
    public private(set) var now = Date(timeIntervalSinceReferenceDate: 0)

    /// An agent serving a fresh host as `name`, whose timers sleep on `clock`. `prepare` runs on
    /// the host before the agent observes it. `journeyControl` makes the agent's journey control
    /// for the host (lifecycle steps); without it, `journey` is unsupported.
    public convenience init(
        limits: AgentLimits = AgentLimits(), name: String = "embedded-host", clock: ManualClock = ManualClock(),
        prepare: (BridgeHost) -> Void = { _ in }, journeyControl: ((BridgeHost) -> any JourneyControl)? = nil
    ) throws {
        try self.init(limits: limits, gate: nil, name: name, clock: clock, prepare: prepare, journeyControl: journeyControl)
    }

    /// An agent serving a fresh host as `name`; with `gate`, TCP connections must pass it.
    /// `prepare` runs on the host before the agent observes it.
    convenience init(
        limits: AgentLimits = AgentLimits(), gate: AgentAuthGate?, name: String = "embedded-host",
        clock: ManualClock = ManualClock(), prepare: (BridgeHost) -> Void = { _ in },
        journeyControl: ((BridgeHost) -> any JourneyControl)? = nil
    ) throws {
        let host = BridgeHost(hostVersion: "2.3.4")
        let journey = RecordingJourneyTransport()
        host.clock = clock
        host.attach(journey)
        prepare(host)
        try self.init(
            serving: host, host: host, journey: journey, limits: limits, gate: gate, name: name, clock: clock,
            journeyControl: journeyControl?(host))
    }

    /// An agent serving `served` (the GBGBridge adapter of `host`, say) as `name`. `host` and
    /// `journey` are what the served host reads and delivers to; `clock` is the one its timers
    /// sleep on (give the adapter the same), which ``advanceTime(by:)`` moves.
    public convenience init(
        serving served: any InspectableHost, over host: BridgeHost, journey: RecordingJourneyTransport,
        limits: AgentLimits = AgentLimits(), name: String = "embedded-host", clock: ManualClock
    ) throws {
        try self.init(serving: served, host: host, journey: journey, limits: limits, gate: nil, name: name, clock: clock)
    }

    private init(
        serving served: any InspectableHost, host: BridgeHost, journey: RecordingJourneyTransport, limits: AgentLimits,
        gate: AgentAuthGate?, name: String, clock: ManualClock, journeyControl: (any JourneyControl)? = nil
    ) throws {
        self.host = host
        self.journey = journey
        self.clock = clock
        self.limits = limits
        self.gate = gate
        let inbox = try AgentInbox()
        self.inbox = inbox
        let observed = InspectorAgent.observe(served, name: name, limits: limits, inbox: inbox, journeyControl: journeyControl)
        reporting = observed.reporting
        let executor = observed.executor
        core = AgentCore(state: observed.state, limits: limits, auth: gate, now: now, clientLeft: { executor.clientLeft($0) }) {
            command, tag in
            executor.start(command, tag: tag, replyingTo: inbox)
        }
    }

    /// Stops observing the host and closes every connection.
    public func stop() {
        core.finish(now: now)
        closeGivenUp()
        reporting.stop()
        inbox.close()
    }

    /// A new client connection over the Unix socket (its hello is queued by the next ``run()``).
    /// The agent may write `bufferBytes` to it that the client has not read: its socket buffer.
    public func connect(bufferBytes: Int = 256 * 1024) -> EmbeddedConnection {
        connect(.unix, bufferBytes: bufferBytes)
    }

    /// A new client connection over `transport` (see ``connect(bufferBytes:)``).
    func connect(_ transport: AgentCore.Transport, bufferBytes: Int = 256 * 1024) -> EmbeddedConnection {
        nextConnectionId += 1
        let connection = EmbeddedConnection(id: nextConnectionId, capacity: bufferBytes)
        connections[connection.id] = connection
        core.connectionOpened(connection.id, transport: transport, output: connection, now: now)
        closeGivenUp()
        run()
        return connection
    }

    /// Runs passes until the agent has nothing left to do now: no change waiting in the inbox
    /// and no input it wants to read.
    public func run() {
        for _ in 0..<10_000 {
            guard pass() else { return }
        }
    }

    /// Moves the agent's clock and ``clock`` on by `seconds`, then ``run()``s. (The host's
    /// timers that this wakes run on the main actor later: wait for what they do.)
    public func advanceTime(by seconds: Double) {
        now = now.addingTimeInterval(seconds)
        clock.advance(by: .seconds(seconds))
        run()
    }

    /// Moves the clock to the core's next deadline (if any), then ``run()``s; returns that deadline.
    @discardableResult
    public func advanceToNextDeadline() -> Date? {
        guard let deadline = core.nextDeadline else { return nil }
        if deadline > now {
            clock.advance(by: .seconds(deadline.timeIntervalSince(now)))
            now = deadline
        }
        run()
        return deadline
    }

    /// When the core next needs waking.
    public var nextDeadline: Date? { core.nextDeadline }
    /// Connections the core serves.
    public var clientCount: Int { core.clientCount }
    /// Of those, the ones subscribed to changes.
    public var subscriberCount: Int { core.subscriberCount }

    /// How many clients the core queues each event for (its list beside the clients).
    public var broadcastTargetCount: Int { core.broadcastTargetCount }
    /// The bytes the core holds: its copy of the host's state and every client's queue.
    public var heldBytes: Int { core.heldBytes }

    /// Has the journey send `text`, and runs the agent.
    public func receive(_ text: String) {
        host.receive(text: text)
        run()
    }

    /// One pass of the poll driver; returns whether it took in anything (changes or bytes).
    private func pass() -> Bool {
        var progressed = false
        if inbox.drain({ core.apply(&$0, now: now) }) > 0 { progressed = true }
        for id in connections.keys.sorted() {
            guard let connection = connections[id] else { continue }
            for _ in 0..<16 {
                guard core.wantsToRead(id) else { break }
                if let chunk = connection.takeIncoming(upTo: AgentLoop.readChunkBytes) {
                    chunk.withUnsafeBytes { core.bytesRead($0, from: id, now: now) }
                    progressed = true
                } else {
                    if connection.isClosedByClient { core.connectionClosedByPeer(id) }
                    break
                }
                closeGivenUp()
                guard core.isOpen(id) else { break }
            }
            closeGivenUp()
        }
        let before = connections.values.reduce(0) { $0 + $1.writtenByAgent }
        core.service(now: now)
        closeGivenUp()
        // Bytes written can free a client's input (back-pressure), so another pass may read more;
        // and what `service` queued last (a reply to a frame it held back) is written by the next
        // pass, as the poll driver's next pass does once the socket is writable.
        if connections.values.reduce(0, { $0 + $1.writtenByAgent }) != before { progressed = true }
        if connections.values.contains(where: { core.wantsToWrite($0.id) && $0.hasRoom }) { progressed = true }
        return progressed
    }

    private func closeGivenUp() {
        for id in core.takeConnectionsToClose() {
            connections.removeValue(forKey: id)?.closeByAgent()
        }
    }
}

/// One in-memory connection between a test's client and the ``EmbeddedAgent``: the bytes each
/// side sent and the other has not read, and a socket buffer of fixed size on the agent's side.
/// Used from the main actor, as the agent is.
public final class EmbeddedConnection: AgentOutput {
    public let id: Int
    /// How many bytes the agent may have written that the client has not read (a socket's buffer).
    public var capacity: Int
    private var incoming: [UInt8] = []
    private var incomingOffset = 0
    private var outgoing: [UInt8] = []
    private var framer = LineFramer(maximumLineLength: 128 * 1024 * 1024)
    /// Every byte the agent has written to this connection.
    public private(set) var writtenByAgent = 0
    /// Whether the agent closed the connection (it gave up on the client).
    public private(set) var isClosedByAgent = false
    /// Whether the client closed its end (``close()``).
    public private(set) var isClosedByClient = false

    init(id: Int, capacity: Int) {
        self.id = id
        self.capacity = capacity
    }

    // MARK: The agent's side

    public func write(_ bytes: UnsafeRawBufferPointer) throws -> UnixConnection.WriteResult {
        if isClosedByClient || isClosedByAgent { throw SocketSystemError(operation: "write", code: EPIPE) }
        let room = capacity - outgoing.count
        guard room > 0, !bytes.isEmpty else { return .wouldBlock }
        let count = min(room, bytes.count)
        outgoing.append(contentsOf: bytes.prefix(count))
        writtenByAgent += count
        return .written(count)
    }

    /// Up to `limit` of the client's bytes the agent has not read, or nil when there are none.
    func takeIncoming(upTo limit: Int) -> [UInt8]? {
        guard incomingOffset < incoming.count else { return nil }
        let end = min(incoming.count, incomingOffset + limit)
        let chunk = Array(incoming[incomingOffset..<end])
        incomingOffset = end
        if incomingOffset == incoming.count {
            incoming.removeAll(keepingCapacity: true)
            incomingOffset = 0
        }
        return chunk
    }

    func closeByAgent() {
        isClosedByAgent = true
    }

    // MARK: The client's side

    /// Sends `text` and a newline (run the agent to have it read).
    public func send(_ text: String) {
        write(raw: text + "\n")
    }

    /// Sends exactly `text`.
    public func write(raw text: String) {
        incoming.append(contentsOf: text.utf8)
    }

    /// Sends the client's hello.
    public func sendHello(subscribe: Bool = true) {
        send(#"{"kind":"hello","protocol":1,"client":"embedded","subscribe":\#(subscribe)}"#)
    }

    /// Closes the client's end.
    public func close() {
        isClosedByClient = true
    }

    /// Whether the agent could write to this connection now.
    public var hasRoom: Bool { !isClosedByAgent && outgoing.count < capacity }

    /// Bytes the agent wrote that the client has not read.
    public var unreadByteCount: Int { outgoing.count }

    /// Reads every whole line the agent has written so far, undecoded (which frees the buffer).
    public func readLines() throws -> [[UInt8]] {
        let bytes = outgoing
        outgoing.removeAll(keepingCapacity: true)
        return try bytes.withUnsafeBytes { framer.feed($0) }.map { frame in
            guard case .line(let line) = frame else { throw TestSetupError(description: "an oversized frame from the agent") }
            return line
        }
    }
}
#endif
