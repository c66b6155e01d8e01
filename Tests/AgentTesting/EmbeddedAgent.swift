import BridgeCore
import Foundation
@testable import InspectorAgent
import SocketSupport
import TestSupport

/// The agent's core (``AgentCore``) driven without sockets, threads or a real clock, in the
/// manner of swift-nio's `EmbeddedChannel`: a test writes a client's bytes in, runs the agent,
/// reads the agent's bytes out, and moves time on with ``advanceTime(by:)``. Nothing happens
/// between two calls, so what a test sees does not depend on how busy the machine is, and a
/// time limit of minutes is crossed in a microsecond.
///
/// It does what ``AgentLoop`` (the poll driver) does on each pass, in the same order: take the
/// host's changes from the inbox, read what the core wants read (at most 16 reads of
/// `AgentLoop.readChunkBytes` per connection), then ``AgentCore/service(now:)``, and close what the
/// core gave up. The host is a real `BridgeHost` on the main actor, observed exactly as
/// ``InspectorAgent`` observes it; commands the core does not answer itself run there, and
/// their replies come back on a later ``run()``.
@MainActor
final class EmbeddedAgent {
    let host: BridgeHost
    let journey: RecordingJourneyTransport
    let limits: AgentLimits
    /// The TCP token's gate when the agent takes TCP connections.
    let gate: AgentAuthGate?
    private let inbox: AgentInbox
    private let core: AgentCore
    private let reporting: any InspectionReporting
    private var connections: [Int: EmbeddedConnection] = [:]
    private var nextConnectionId = 0
    /// The agent's clock: starts at a fixed instant and moves only with ``advanceTime(by:)``
    /// (near the reference date, where a `Date` keeps sub-nanosecond precision).
    private(set) var now = Date(timeIntervalSinceReferenceDate: 0)

    /// An agent serving a fresh host as `name`; with `gate`, TCP connections must pass it.
    /// `prepare` runs on the host before the agent observes it.
    init(
        limits: AgentLimits = AgentLimits(), gate: AgentAuthGate? = nil, name: String = "embedded-host",
        prepare: (BridgeHost) -> Void = { _ in }
    ) throws {
        host = BridgeHost(hostVersion: "2.3.4")
        journey = RecordingJourneyTransport()
        host.attach(journey)
        prepare(host)
        self.limits = limits
        self.gate = gate
        let inbox = try AgentInbox()
        self.inbox = inbox
        let observed = InspectorAgent.observe(host, name: name, limits: limits, inbox: inbox)
        reporting = observed.reporting
        let executor = observed.executor
        core = AgentCore(state: observed.state, limits: limits, auth: gate, now: now, clientLeft: { executor.clientLeft($0) }) {
            command, tag in
            executor.start(command, tag: tag, replyingTo: inbox)
        }
    }

    /// Stops observing the host and closes every connection.
    func stop() {
        core.finish(now: now)
        closeGivenUp()
        reporting.stop()
        inbox.close()
    }

    /// A new client connection (its hello, over Unix, is queued by the next ``run()``). The
    /// agent may write `bufferBytes` to it that the client has not read: its socket buffer.
    func connect(_ transport: AgentCore.Transport = .unix, bufferBytes: Int = 256 * 1024) -> EmbeddedConnection {
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
    func run() {
        for _ in 0..<10_000 {
            guard pass() else { return }
        }
    }

    /// Moves the agent's clock on by `seconds`, then ``run()``s.
    func advanceTime(by seconds: Double) {
        now = now.addingTimeInterval(seconds)
        run()
    }

    /// Moves the clock to the core's next deadline (if any), then ``run()``s; returns that deadline.
    @discardableResult
    func advanceToNextDeadline() -> Date? {
        guard let deadline = core.nextDeadline else { return nil }
        if deadline > now { now = deadline }
        run()
        return deadline
    }

    /// When the core next needs waking.
    var nextDeadline: Date? { core.nextDeadline }
    var clientCount: Int { core.clientCount }
    var subscriberCount: Int { core.subscriberCount }
    var heldBytes: Int { core.heldBytes }

    /// Has the journey send `text`, and runs the agent.
    func receive(_ text: String) {
        host.receive(text: text)
        run()
    }

    /// One pass of the poll driver; returns whether it took in anything (changes or bytes).
    private func pass() -> Bool {
        var progressed = false
        if inbox.drain({ core.apply($0, now: now) }) > 0 { progressed = true }
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
final class EmbeddedConnection: AgentOutput {
    let id: Int
    /// How many bytes the agent may have written that the client has not read (a socket's buffer).
    var capacity: Int
    private var incoming: [UInt8] = []
    private var incomingOffset = 0
    private var outgoing: [UInt8] = []
    private var framer = LineFramer(maximumLineLength: 128 * 1024 * 1024)
    /// Every byte the agent has written to this connection.
    private(set) var writtenByAgent = 0
    private(set) var isClosedByAgent = false
    private(set) var isClosedByClient = false

    init(id: Int, capacity: Int) {
        self.id = id
        self.capacity = capacity
    }

    // MARK: The agent's side

    func write(_ bytes: UnsafeRawBufferPointer) throws -> UnixConnection.WriteResult {
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
    func send(_ text: String) {
        write(raw: text + "\n")
    }

    /// Sends exactly `text`.
    func write(raw text: String) {
        incoming.append(contentsOf: text.utf8)
    }

    /// Sends the client's hello.
    func sendHello(subscribe: Bool = true) {
        send(#"{"kind":"hello","protocol":1,"client":"embedded","subscribe":\#(subscribe)}"#)
    }

    /// Closes the client's end.
    func close() {
        isClosedByClient = true
    }

    /// Whether the agent could write to this connection now.
    var hasRoom: Bool { !isClosedByAgent && outgoing.count < capacity }

    /// Bytes the agent wrote that the client has not read.
    var unreadByteCount: Int { outgoing.count }

    /// Reads every whole frame the agent has written so far (which frees the buffer).
    func readFrames() throws -> [Frame] {
        try readLines().map(Frame.init(raw:))
    }

    /// Reads every whole line the agent has written so far, undecoded (which frees the buffer).
    func readLines() throws -> [[UInt8]] {
        let bytes = outgoing
        outgoing.removeAll(keepingCapacity: true)
        return try bytes.withUnsafeBytes { framer.feed($0) }.map { frame in
            guard case .line(let line) = frame else { throw TestSetupError(description: "an oversized frame from the agent") }
            return line
        }
    }
}
