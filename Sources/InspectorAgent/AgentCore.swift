import BridgeCore
import DequeModule
import Foundation
import InspectorProtocol
import SocketSupport

/// The agent's state machine, without I/O: no sockets, no `poll`, no threads, no clock.
///
/// A driver feeds it what happens (a connection opened, bytes read from one, one closed by its
/// peer, the host's changes and replies) with the time, and performs what it asks: write to
/// each connection's ``AgentOutput`` (the core writes there itself, taking only what fits now),
/// close the connections in ``takeConnectionsToClose()``, read from those that
/// ``wantsToRead(_:)``, wait for writability where ``wantsToWrite(_:)``, and wake it again by
/// ``nextDeadline``. ``AgentLoop`` drives it with `poll` and real sockets; the tests' embedded
/// driver drives it with in-memory connections and a clock they advance, in the manner of
/// swift-nio's `EmbeddedChannel`.
///
/// It keeps the handshake (and the TCP token before it), answers `ping` and `snapshot` itself,
/// hands other commands to `execute` (whose replies come back through ``apply(_:now:)``), queues
/// events per client with the gap rule, holds back a client's input while it leaves too much
/// unread, and enforces the handshake and stalled-client time limits. Single-threaded: the
/// driver calls it from one thread.
final class AgentCore {
    /// How a connection reached the agent.
    enum Transport {
        /// The per-user Unix socket: greeted at once.
        case unix
        /// The opt-in TCP port: nothing of the host is sent until its first line carries the token.
        case tcp
    }

    // The stored properties the hot path reaches are `@exclusivity(unchecked)`: the core is
    // reached from one thread only and none of its methods lends a property out while another
    // reaches it, and a checked access of a class's property is a call into the runtime (about 75
    // instructions each, three per event frame broadcast; docs/performance.md, issue 30).
    @exclusivity(unchecked) private(set) var state: AgentState
    private let limits: AgentLimits
    /// The TCP token's gate, or nil without TCP.
    private let auth: AgentAuthGate?
    /// Starts a command on the host; its reply arrives later as an inbox item.
    private let execute: (InspectorCommand, AgentInbox.CommandTag) -> Void
    /// Tells the host side that a client went away (its breakpoints go, what they hold is released).
    private let clientLeft: (Int) -> Void

    @exclusivity(unchecked) private var clients: [Int: AgentClient] = [:]
    /// The clients in ``clients`` that subscribed, in the order they did: what every event is
    /// queued for. A list beside the dictionary, so that a broadcast neither walks the
    /// dictionary nor asks every client its phase. A client joins it when its hello subscribes
    /// (the one way into `.ready(subscribed: true)`) and leaves it when it leaves ``clients``.
    @exclusivity(unchecked) private var subscribers: [AgentClient] = []
    /// Raw JSON of messages sent by each command, collected until its reply.
    private var sentByCommand: [AgentInbox.CommandTag: [Data]] = [:]
    /// Connections the driver must close (and forget), oldest first.
    private var closing: [Int] = []
    /// The time of the input being handled.
    @exclusivity(unchecked) private var now: Date
    /// The plain traffic frames of the batch being applied, written one after another into one
    /// array and kept and queued together (``AgentState/FrameRun``). Unchecked as ``state`` is.
    @exclusivity(unchecked) private var run = AgentState.FrameRun()
    /// When the fault rules' new hit counts are due to be sent, if some wait: hits are sent at
    /// most once per ``AgentLimits/faultHitsIntervalSeconds`` (a rule added or removed at once).
    @exclusivity(unchecked) private var faultHitsDue: Date?

    /// A core serving `state`; `auth` when TCP clients may connect; `now` is the driver's clock.
    init(
        state: AgentState, limits: AgentLimits, auth: AgentAuthGate?, now: Date,
        clientLeft: @escaping (Int) -> Void = { _ in },
        execute: @escaping (InspectorCommand, AgentInbox.CommandTag) -> Void
    ) {
        self.clientLeft = clientLeft
        self.state = state
        self.limits = limits
        self.auth = auth
        self.now = now
        self.execute = execute
    }

    // MARK: What the driver asks

    /// Whether the core serves connection `id` (false once it asked to close it).
    func isOpen(_ id: Int) -> Bool { clients[id] != nil }

    /// Whether the driver should read from `id` now: not while frames read from it wait, nor
    /// while it leaves too many bytes unread (back-pressure on input). A hang-up is noticed
    /// whatever this says.
    func wantsToRead(_ id: Int) -> Bool {
        guard let client = clients[id] else { return false }
        return client.unhandledFrames.isEmpty && client.acceptsInput(limit: limits.maxQueuedBytesPerClient)
    }

    /// Whether `id` has bytes its output has not taken yet (the driver waits for writability).
    func wantsToWrite(_ id: Int) -> Bool {
        clients[id]?.wantsToWrite ?? false
    }

    /// Connections to close now, in the order the core gave them up; the driver closes each
    /// and forgets it.
    func takeConnectionsToClose() -> [Int] {
        defer { closing.removeAll() }
        return closing
    }

    /// When the core next needs ``service(now:)`` even if nothing happens: the earliest
    /// handshake deadline, stall deadline, (for a TCP client whose token was refused) time its
    /// refusal is sent, or time the fault rules' hit counts are due. The limits are "later than",
    /// so a call at the deadline itself changes nothing; a refusal and hit counts are sent at
    /// their time.
    var nextDeadline: Date? {
        var earliest: Date?
        func consider(_ date: Date) {
            if earliest.map({ date < $0 }) ?? true { earliest = date }
        }
        if let faultHitsDue { consider(faultHitsDue) }
        for client in clients.values {
            switch client.phase {
            case .awaitingAuth(let deadline):
                consider(deadline)
            case .refusing(let at, _):
                consider(at)
            case .awaitingHello(let deadline):
                if !client.closeAfterFlush { consider(deadline) }
            case .refused, .ready:
                break
            }
            if let stall = client.stallDeadline(after: limits.stalledClientSeconds) { consider(stall) }
        }
        return earliest
    }

    /// The number of connected clients.
    var clientCount: Int { clients.count }

    /// The clients that finished their handshake and follow the host.
    var subscriberCount: Int { clients.values.count { $0.isSubscribed } }

    /// The most event bytes any client has had queued since it connected or since
    /// ``resetEventBacklogHighWater()``: the margin to the gap rule (issue 30's benchmarks).
    var eventBacklogHighWater: Int { clients.values.reduce(0) { max($0, $1.eventBacklogHighWater) } }

    /// Starts every client's ``AgentClient/eventBacklogHighWater`` again from what it has queued.
    func resetEventBacklogHighWater() {
        for client in clients.values { client.resetEventBacklogHighWater() }
    }

    /// How many clients a broadcast queues events for (for tests: always ``subscriberCount``).
    var broadcastTargetCount: Int { subscribers.count }

    /// Bytes held: the state's copy plus every client's queue, partial line and unhandled frames.
    var heldBytes: Int { Self.heldBytes(of: &state) + clients.values.reduce(0) { $0 + $1.heldBytes } }

    /// The state's held bytes, read where the state lies: through the property, the getter was
    /// handed a copy of the whole state (every reference in it retained and released), on
    /// every pass of the loop.
    private static func heldBytes(of state: inout AgentState) -> Int {
        state.heldBytes
    }

    // MARK: What happens

    /// A connection was opened: the core greets it (Unix), waits for its token (TCP), or
    /// refuses it when the agent is full (it then asks to close it).
    func connectionOpened(_ id: Int, transport: Transport, output: any AgentOutput, now: Date) {
        self.now = now
        let needsAuth = transport == .tcp
        // Connections that have not authenticated may take only a few of the client slots, so a
        // stranger on the TCP port cannot crowd out the inspectors on the Unix socket. When they
        // are all taken, the newcomer displaces the one that waited longest, so strangers can
        // never keep an inspector with the right token out.
        if needsAuth {
            let waiting = clients.values.filter(\.isAwaitingAuth)
            if waiting.count >= limits.maxClientsAwaitingAuth, let oldest = Self.displaced(among: waiting) {
                displace(oldest)
            }
        }
        let client = AgentClient(
            id: id, output: output, now: now,
            handshakeDeadline: now.addingTimeInterval(limits.handshakeSeconds),
            maxFrameBytes: limits.maxClientFrameBytes, needsAuth: needsAuth)
        if clients.count >= limits.maxClients {
            client.enqueue(
                Self.replyFrame(
                    id: nil,
                    result: .failure(
                        InspectorError(
                            .tooManyClients,
                            "this host already serves \(limits.maxClients) inspectors; close one and try again")),
                    sent: []),
                now: now)
            _ = client.flush(now: now)
            closing.append(id)
            return
        }
        clients[client.id] = client
        if !needsAuth { client.enqueue(helloFrame(clientId: client.id), now: now) }
    }

    /// Bytes read from connection `id` (at most one read's worth, ``AgentLoop/readChunkBytes``):
    /// split into frames and handled as far as back-pressure allows.
    func bytesRead(_ bytes: UnsafeRawBufferPointer, from id: Int, now: Date) {
        self.now = now
        guard let client = clients[id] else { return }
        let frames = client.framer.feed(bytes)
        client.unhandledFrames.append(contentsOf: frames)
        if case .awaitingAuth = client.phase, client.unhandledFrames.isEmpty,
            client.framer.bufferedByteCount > ClientAuth.maxFrameBytes
        {
            // A first line already too long to be an auth frame: refused now, not at its end.
            client.unhandledFrames.append(.oversized(byteCount: client.framer.bufferedByteCount))
        }
        handleUnhandledFrames(of: client)
    }

    /// The peer closed connection `id` (end of file, or a failed read): the core forgets it and
    /// asks the driver to close it.
    func connectionClosedByPeer(_ id: Int) {
        guard let client = clients[id] else { return }
        drop(client)
    }

    /// Applies the host's changes and command replies, in order: events to every subscribed
    /// client (or into its gap), replies to the client that asked.
    func apply(_ batch: inout AgentInbox.Batch, now: Date) {
        self.now = now
        // The largest messages come in arrays of their own, in which their frames are written.
        var ownBuffers = batch.takeOwnBuffers()
        // A plain traffic record (nearly every change) is read where it is, in the batch's arena,
        // and its frame written after the last one's, in the run's array.
        batch.forEach { record in
            if _slowPath(record.ownBuffer >= 0) {
                endRun()
                broadcast(state.apply(record, taking: &ownBuffers[record.ownBuffer]))
                return
            }
            if !run.fits(messageBytes: record.json.count) {
                endRun()
                run.startArray(messageBytes: record.json.count, runLeft: record.runLeft)
            }
            if !state.write(record, into: &run) {
                endRun()
                broadcast(state.apply(record))
            }
        } other: { item in
            endRun()
            apply(item)
        }
        endRun()
    }

    /// Ends the run of plain traffic frames written so far: the log keeps them, and every
    /// subscribed client queues them, client by client (``AgentState/FrameRun``).
    private func endRun() {
        guard !run.isEmpty else { return }
        run.trimIfMostlyUnused()
        state.keep(run)
        let now = now
        let limit = limits.maxQueuedBytesPerClient
        for client in subscribers {
            client.enqueueEvents(of: run, limit: limit, now: now)
        }
        run.clear()
    }

    /// Applies one item of a batch other than a plain traffic record.
    private func apply(_ item: AgentInbox.Item) {
        switch item {
        case .traffic, .received:
            // Handled by the caller, with the batch's bytes (a received message's once encoded).
            break
        case .change(let change, let tag, let links):
            let (frame, sent) = state.apply(change, tag: tag, links: links)
            if let tag, let sent { sentByCommand[tag, default: []].append(sent) }
            broadcast(frame)
        case .reply(let tag, let result):
            let sent = sentByCommand.removeValue(forKey: tag) ?? []
            if let client = clients[tag.client] {
                client.enqueue(Self.replyFrame(id: tag.command, result: result, sent: sent), now: now)
            }
        case .breakpoints(let list):
            broadcast(state.apply(list))
        case .holdSkipped(let skipped):
            broadcast(state.apply(skipped))
        case .faults(let list):
            // The list carries the latest hit counts too: none wait any longer.
            faultHitsDue = nil
            broadcast(state.apply(list))
        case .faultHits(let list):
            state.take(list)
            if faultHitsDue == nil { faultHitsDue = now.addingTimeInterval(AgentLimits.faultHitsIntervalSeconds) }
        }
    }

    /// Queues the event frame just made (numbered ``AgentState/seq``) for every subscribed client.
    private func broadcast(_ frame: [UInt8]) {
        broadcast(frame[...])
    }

    /// Queues the event frame just made (numbered ``AgentState/seq``) for every subscribed client.
    private func broadcast(_ frame: ArraySlice<UInt8>) {
        broadcast(frame, seq: state.seq)
    }

    /// Queues the event frame numbered `seq` for every subscribed client.
    private func broadcast(_ frame: ArraySlice<UInt8>, seq: Int) {
        let now = now
        let limit = limits.maxQueuedBytesPerClient
        for client in subscribers {
            client.enqueueEvent(frame, seq: seq, limit: limit, now: now)
        }
    }

    /// The end of every pass of the driver, and what a deadline wakes: sends the fault rules' hit
    /// counts when due, enforces the time limits, writes what each output takes (a gap marker and snapshot to a client that caught up),
    /// closes what is done, and handles frames held back while a client was behind.
    func service(now: Date) {
        self.now = now
        if let due = faultHitsDue, now >= due {
            faultHitsDue = nil
            broadcast(state.faultsFrame())
        }
        housekeeping()
        flushAll()
        // Frames held back while a client was behind, now that it may have caught up.
        for client in Array(clients.values) where !client.unhandledFrames.isEmpty {
            handleUnhandledFrames(of: client)
        }
    }

    /// The agent stops: what each output takes now is written, then every connection is to be
    /// closed.
    func finish(now: Date) {
        self.now = now
        flushAll()
        for id in clients.keys.sorted() { closing.append(id) }
        clients.removeAll()
        subscribers.removeAll()
        sentByCommand.removeAll()
    }

    /// The driver's thread ends: the state's records are freed here, on it (``AgentState/releaseRecords()``),
    /// not by whichever thread drops the core last. Called after ``finish(now:)``; the core serves
    /// nothing after it.
    func releaseRecords() {
        state.releaseRecords()
    }

    // MARK: Clients

    /// Handles the frames already read from `client`, in order, until its queue of unread frames
    /// reaches the limit; the rest wait for the client to read (back-pressure on input).
    private func handleUnhandledFrames(of client: AgentClient) {
        switch client.phase {
        case .refused, .refusing:
            client.unhandledFrames.removeAll()
            return
        case .awaitingAuth:
            guard handleAuth(of: client) else { return }
        case .awaitingHello, .ready:
            break
        }
        while clients[client.id] != nil, client.acceptsInput(limit: limits.maxQueuedBytesPerClient),
            let frame = client.unhandledFrames.popFirst()
        {
            switch frame {
            case .line(let line):
                handleLine(line, from: client)
            case .oversized(let byteCount):
                protocolError(
                    client, id: nil,
                    InspectorError(
                        .frameTooLarge,
                        "frame of more than \(byteCount - 1) bytes is over the \(limits.maxClientFrameBytes)-byte cap; it was skipped"))
            }
        }
    }

    /// Judges a TCP client's first line as soon as it arrives; returns whether the client is now
    /// authenticated (its hello is queued and its later frames may be handled). A refusal is
    /// sent when the gate's pace allows, at once or on a later pass.
    private func handleAuth(of client: AgentClient) -> Bool {
        guard let auth, let first = client.unhandledFrames.popFirst() else { return false }
        guard case .line(let line) = first, line.count <= ClientAuth.maxFrameBytes else {
            auth.recordFailure(now: now)
            refuseAuth(client, InspectorError(.authRequired, AgentAuthGate.requiredMessage))
            return false
        }
        switch auth.judge(line, now: now) {
        case .accepted:
            client.phase = .awaitingHello(deadline: now.addingTimeInterval(limits.handshakeSeconds))
            client.enqueue(helloFrame(clientId: client.id), now: now)
            return true
        case .refused(let error, let at):
            if at <= now {
                refuseAuth(client, error)
            } else {
                client.phase = .refusing(at: at, error: error)
                client.unhandledFrames.removeAll()
            }
            return false
        }
    }

    /// Which of the connections waiting to authenticate makes room for a new one: the oldest
    /// whose token was already refused (its refusal is only sent early), otherwise the oldest.
    static func displaced(among waiting: [AgentClient]) -> AgentClient? {
        waiting.filter(\.isRefusing).min { $0.id < $1.id } ?? waiting.min { $0.id < $1.id }
    }

    /// Closes `client`, which has not authenticated, to make room: a refused one is told its
    /// refusal, one still waiting is told why it is closed. Written now, forgotten now.
    private func displace(_ client: AgentClient) {
        let error: InspectorError
        if case .refusing(_, let refusal) = client.phase {
            error = refusal
        } else {
            auth?.recordFailure(now: now)
            error = InspectorError(.tooManyWaiting, AgentAuthGate.crowdedMessage)
        }
        client.phase = .refused
        client.enqueue(Self.replyFrame(id: nil, result: .failure(error), sent: []), now: now)
        _ = client.flush(now: now)
        drop(client)
    }

    /// Sends `error` (no host data in it) and closes the connection once it is written.
    private func refuseAuth(_ client: AgentClient, _ error: InspectorError) {
        client.phase = .refused
        client.unhandledFrames.removeAll()
        client.enqueue(Self.replyFrame(id: nil, result: .failure(error), sent: []), now: now)
        client.closeAfterFlush = true
    }

    /// Decodes one client frame, or says in a `malformed_frame` error what is wrong with it.
    static func decodeFrame(_ line: [UInt8]) -> Result<IncomingFrame, InspectorError> {
        // One pass of the JSON front door, its depth bounded: a few hundred levels in a frame of
        // a few hundred bytes must not overflow the agent thread's stack inside the host.
        do throws(JSONDecoding.Failure) {
            return .success(try JSONDecoding.decode(IncomingFrame.self, from: line, maxDepth: WireProtocol.maxClientFrameDepth))
        } catch {
            switch error {
            case .invalidJSON(let problem):
                return .failure(InspectorError(.malformedFrame, "bad frame: invalid JSON at \(problem)"))
            case .wrongContent:
                return .failure(InspectorError(.malformedFrame, "bad frame: not a frame object with a known \"kind\""))
            }
        }
    }

    private func handleLine(_ line: [UInt8], from client: AgentClient) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }  // blank lines are ignored
        let frame: IncomingFrame
        switch Self.decodeFrame(line) {
        case .success(let decoded):
            frame = decoded
        case .failure(let error):
            protocolError(client, id: nil, error)
            return
        }
        switch client.phase {
        case .awaitingAuth, .refusing, .refused:
            return  // handled in handleUnhandledFrames; never reached
        case .awaitingHello:
            guard frame.kind == "hello" else {
                protocolError(
                    client, id: frame.id,
                    InspectorError(.handshakeRequired, "send {\"kind\":\"hello\",\"protocol\":\(WireProtocol.version),...} first"))
                return
            }
            guard frame.protocol == WireProtocol.version else {
                client.enqueue(
                    Self.replyFrame(
                        id: nil,
                        result: .failure(
                            InspectorError(
                                .protocolMismatch,
                                "this agent speaks protocol \(WireProtocol.version), the client \(frame.protocol.map(String.init) ?? "none"); use a matching bridge-inspector")),
                        sent: []),
                    now: now)
                client.closeAfterFlush = true
                return
            }
            client.name = Self.clientName(frame.client)
            let subscribe = frame.subscribe ?? true
            client.phase = .ready(subscribed: subscribe)
            if subscribe { subscribers.append(client) }
            if subscribe { client.enqueue(state.snapshotFrame(), now: now) }
        case .ready:
            guard frame.kind == "command" else {
                protocolError(
                    client, id: frame.id,
                    InspectorError(.malformedFrame, "expected a frame of kind \"command\" (got \"\(frame.kind)\")"))
                return
            }
            guard let id = frame.id, let name = frame.command else {
                protocolError(client, id: frame.id, InspectorError(.malformedFrame, "a command needs \"id\" and \"command\""))
                return
            }
            switch InspectorCommand.decode(name: name, args: frame.args) {
            case .failure(let error):
                if error.knownCode == .unknownCommand {
                    protocolError(client, id: id, error)
                } else {
                    client.enqueue(Self.replyFrame(id: id, result: .failure(error), sent: []), now: now)
                }
            case .success(.snapshot):
                client.enqueue(Self.replyFrame(id: id, result: .success(["seq": .number(Double(state.seq))]), sent: []), now: now)
                client.enqueue(state.snapshotFrame(), now: now)
            case .success(.ping):
                client.enqueue(Self.replyFrame(id: id, result: .success([:]), sent: []), now: now)
            case .success(let command):
                execute(command, AgentInbox.CommandTag(client: client.id, command: id, kind: name, clientName: client.name))
            }
        }
    }

    private func protocolError(_ client: AgentClient, id: String?, _ error: InspectorError) {
        client.protocolErrors += 1
        client.enqueue(Self.replyFrame(id: id, result: .failure(error), sent: []), now: now)
        if client.protocolErrors >= limits.maxProtocolErrors {
            client.enqueue(
                Self.replyFrame(
                    id: nil,
                    result: .failure(
                        InspectorError(.tooManyErrors, "\(client.protocolErrors) bad frames; closing the connection")),
                    sent: []),
                now: now)
            client.closeAfterFlush = true
        }
    }

    private func drop(_ client: AgentClient) {
        clients.removeValue(forKey: client.id)
        subscribers.removeAll { $0 === client }
        closing.append(client.id)
        // Only a client past its handshake can have sent commands or set breakpoints; the host
        // is not troubled for the others (strangers cycling connections on the TCP port).
        guard case .ready = client.phase else { return }
        sentByCommand = sentByCommand.filter { $0.key.client != client.id }
        clientLeft(client.id)
    }

    private func housekeeping() {
        for client in Array(clients.values) {
            // A TCP client whose refusal's time came.
            if case .refusing(let at, let error) = client.phase, now >= at {
                refuseAuth(client, error)
            }
            // A TCP client silent past the deadline.
            if case .awaitingAuth(let deadline) = client.phase, now > deadline, client.unhandledFrames.isEmpty {
                auth?.recordFailure(now: now)
                refuseAuth(
                    client,
                    InspectorError(
                        .authRequired,
                        "no auth frame within \(Self.secondsText(limits.handshakeSeconds)) seconds; \(AgentAuthGate.requiredMessage)"))
            }
            if case .awaitingHello(let deadline) = client.phase, now > deadline, !client.closeAfterFlush {
                client.enqueue(
                    Self.replyFrame(
                        id: nil,
                        result: .failure(
                            InspectorError(
                                .handshakeRequired,
                                "no hello within \(Self.secondsText(limits.handshakeSeconds)) seconds; closing the connection")),
                        sent: []),
                    now: now)
                client.closeAfterFlush = true
            }
            if client.isStalled(longerThan: limits.stalledClientSeconds, now: now) {
                drop(client)
            }
        }
    }

    private func flushAll() {
        for client in Array(clients.values) {
            guard client.flush(now: now) else {
                drop(client)
                continue
            }
            if let gap = client.takeGapIfCaughtUp() {
                client.enqueue(Self.gapFrame(gap), now: now)
                client.enqueue(state.snapshotFrame(), now: now)
                guard client.flush(now: now) else {
                    drop(client)
                    continue
                }
            }
            if client.closeAfterFlush, !client.wantsToWrite { drop(client) }
        }
    }

    /// The name a client gave in its hello, cut to ``AgentLimits/maxClientNameBytes`` (it is
    /// repeated in every breakpoint of that client); `unknown` when it gave none.
    static func clientName(_ given: String?) -> String {
        guard let given else { return "unknown" }
        guard given.utf8.count > AgentLimits.maxClientNameBytes else { return given }
        // Cut on a character boundary, so the name stays valid text.
        var cut = ""
        for character in given.unicodeScalars {
            guard cut.utf8.count + character.utf8.count <= AgentLimits.maxClientNameBytes else { break }
            cut.unicodeScalars.append(character)
        }
        return cut
    }

    /// `5` for 5.0, `0.5` for 0.5: a deadline below one second must not read "0 seconds".
    static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e9 ? String(Int(seconds)) : String(seconds)
    }

    // MARK: Frames

    private func helloFrame(clientId: Int) -> [UInt8] {
        var writer = JSONWriter()
        writer.objectStart()
        writer.key("kind"); writer.string("hello")
        writer.key("protocol"); writer.number(WireProtocol.version)
        writer.key("agent"); writer.string(WireProtocol.agentName)
        writer.key("host"); writer.splice(AgentState.encode(state.host))
        writer.key("features"); writer.arrayStart()
        for feature in WireProtocol.features { writer.string(feature) }
        writer.arrayEnd()
        // What the host offers the journey, for clients that never subscribe (scripts).
        writer.key("capabilities"); writer.objectStart()
        state.writeCapabilities(into: &writer)
        writer.objectEnd()
        writer.key("limits"); writer.objectStart()
        writer.key("maxFrameBytes"); writer.number(limits.maxClientFrameBytes)
        writer.key("maxClients"); writer.number(limits.maxClients)
        writer.objectEnd()
        writer.key("clientId"); writer.number(clientId)
        writer.objectEnd()
        writer.newline()
        return writer.bytes
    }

    static func gapFrame(_ gap: ClosedRange<Int>) -> [UInt8] {
        var writer = JSONWriter()
        writer.objectStart()
        writer.key("kind"); writer.string("gap")
        writer.key("from"); writer.number(gap.lowerBound)
        writer.key("to"); writer.number(gap.upperBound)
        writer.objectEnd()
        writer.newline()
        return writer.bytes
    }

    static func replyFrame(id: String?, result: Result<JSONValue, InspectorError>, sent: [Data]) -> [UInt8] {
        var writer = JSONWriter()
        writer.objectStart()
        writer.key("kind"); writer.string("reply")
        writer.key("id"); writer.string(id)
        switch result {
        case .success(let value):
            writer.key("ok"); writer.bool(true)
            writer.key("result")
            if let json = try? JSONEncoding.encode(value) { writer.rawJSON(json) } else { writer.null() }
        case .failure(let error):
            writer.key("ok"); writer.bool(false)
            writer.key("error"); writer.objectStart()
            writer.key("code"); writer.string(error.code)
            writer.key("message"); writer.string(error.message)
            writer.objectEnd()
        }
        if !sent.isEmpty {
            writer.key("sent"); writer.arrayStart()
            for json in sent { writer.rawJSON(json) }
            writer.arrayEnd()
        }
        writer.objectEnd()
        writer.newline()
        return writer.bytes
    }
}

/// Any frame a client sends, decoded loosely so that errors can name what is wrong.
struct IncomingFrame: Decodable {
    var kind: String
    var id: String?
    var command: String?
    var args: JSONValue?
    var `protocol`: Int?
    var client: String?
    var subscribe: Bool?
}
