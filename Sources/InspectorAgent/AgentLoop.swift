import BridgeCore
import Foundation
import InspectorProtocol
import SocketSupport

/// The agent's thread: one `poll` loop over the listening socket, the wake pipe and the clients.
///
/// Everything in here runs on that one thread, except `start`, `stop` and the two counters,
/// which are guarded by `lock`.
final class AgentLoop: @unchecked Sendable {
    private let listener: UnixListener
    private let inbox: AgentInbox
    private var state: AgentState
    private let executor: CommandExecutor
    private let limits: AgentLimits
    /// The opt-in TCP listener and its token, or nil.
    private let tcp: AgentTCPServer?

    private var clients: [Int: AgentClient] = [:]
    private var nextClientId = 0
    /// Raw JSON of messages sent by each command, collected until its reply.
    private var sentByCommand: [AgentInbox.CommandTag: [Data]] = [:]

    private let lock = NSLock()
    private var stopping = false
    private var stopped = false
    /// Whether `start` ran. The `Thread` itself is not kept: it keeps its block, which holds this
    /// loop, so keeping the thread here made a cycle that leaked the loop and its copy of the
    /// state (up to the whole log) after `stop` (found by LeakSanitizer).
    private var started = false
    private let finished = DispatchSemaphore(value: 0)
    private var publishedClientCount = 0
    private var publishedSubscriberCount = 0
    private var publishedHeldBytes = 0

    init(
        listener: UnixListener, inbox: AgentInbox, state: AgentState, executor: CommandExecutor, limits: AgentLimits,
        tcp: AgentTCPServer? = nil
    ) {
        self.listener = listener
        self.tcp = tcp
        self.inbox = inbox
        self.state = state
        self.executor = executor
        self.limits = limits
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "bridge-inspector-agent"
        thread.stackSize = 1 << 20
        lock.lock()
        started = true
        lock.unlock()
        thread.start()
    }

    /// Ends the loop and waits for it (bounded), then closes the listener (removing the socket).
    func stop() {
        lock.lock()
        let alreadyStopping = stopping
        stopping = true
        let started = self.started
        lock.unlock()
        guard !alreadyStopping else { return }
        inbox.wakePipe.wake()
        if started { _ = finished.wait(timeout: .now() + 5) }
        inbox.close()
        listener.close()
        tcp?.listener.close()
    }

    var clientCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return publishedClientCount
    }

    var subscriberCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return publishedSubscriberCount
    }

    var heldBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return publishedHeldBytes
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    // MARK: The loop

    private func run() {
        defer {
            // The host's last changes still reach the clients, as far as their sockets take
            // them without waiting: a recording ends with everything up to the stop.
            _ = processInbox()
            flushAll()
            for client in clients.values { client.connection.close() }
            clients.removeAll()
            publish()
            finished.signal()
        }
        var descriptors: [PollDescriptor] = []
        var order: [Int] = []
        while !isStopping {
            descriptors.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true)
            descriptors.append(PollDescriptor(descriptor: listener.rawValue, events: .readable))
            descriptors.append(PollDescriptor(descriptor: inbox.wakePipe.readDescriptor, events: .readable))
            // Always present (-1, ignored by poll, without TCP), so the clients start at index 3.
            descriptors.append(PollDescriptor(descriptor: tcp?.listener.rawValue ?? -1, events: .readable))
            for client in clients.values {
                // A hang-up or error is reported whatever is asked for, so a client whose input
                // is paused is still noticed when it goes.
                let readsMore = client.unhandledFrames.isEmpty && client.acceptsInput(limit: limits.maxQueuedBytesPerClient)
                var events: PollEvents = readsMore ? .readable : []
                if client.wantsToWrite { events.insert(.writable) }
                descriptors.append(PollDescriptor(descriptor: client.connection.rawValue, events: events))
                order.append(client.id)
            }
            do {
                // Block only when nothing is queued; a push wakes a parked loop.
                _ = try Poll.wait(&descriptors, timeoutMilliseconds: inbox.park() ? idleTimeoutMilliseconds() : 0)
            } catch {
                inbox.unpark()
                continue
            }
            inbox.unpark()
            if isStopping { break }
            if !descriptors[1].returnedEvents.isEmpty { inbox.wakePipe.drain() }
            let processed = processInbox()
            for (index, id) in order.enumerated() {
                guard let client = clients[id] else { continue }
                let events = descriptors[index + 3].returnedEvents
                if events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) {
                    readFrom(client)
                }
            }
            if !descriptors[0].returnedEvents.isEmpty { acceptClients() }
            if !descriptors[2].returnedEvents.isEmpty { acceptTCPClients() }
            housekeeping()
            flushAll()
            // Frames held back while a client was behind, now that it may have caught up.
            for client in Array(clients.values) where !client.unhandledFrames.isEmpty {
                handleUnhandledFrames(of: client)
            }
            publish()
            // While the host is busy, let its changes gather for a moment before the next pass:
            // taking them in batches means fewer passes, fewer wake-ups (each costs the host a
            // write to the wake pipe) and less contention on the inbox's lock, so the host's cost
            // per change stays low. An idle agent never naps, so the first change after a pause
            // is handled at once.
            if processed > 0 { usleep(Self.batchNapMicroseconds) }
        }
    }

    /// How long an idle loop waits in `poll`: 250 ms, or less when a TCP auth line waits for
    /// its turn to be judged (so the pace of judgements holds without blocking the loop).
    private func idleTimeoutMilliseconds() -> Int32 {
        guard let tcp, clients.values.contains(where: { $0.isWaitingForJudgement }) else { return 250 }
        return max(1, tcp.millisecondsUntilJudgement(now: Date()))
    }

    /// How long the loop waits after a pass that handled changes (well under the latency a
    /// person can see; at 1,000 changes a second, most changes find the agent idle).
    static let batchNapMicroseconds: UInt32 = 200

    /// Bytes read from a client at once: the frames of one read are held until handled.
    static let readChunkBytes = 64 * 1024

    private func publish() {
        let held = state.heldBytes + clients.values.reduce(0) { $0 + $1.heldBytes }
        lock.lock()
        publishedClientCount = clients.count
        publishedSubscriberCount = clients.values.count { $0.isSubscribed }
        publishedHeldBytes = held
        lock.unlock()
    }

    // MARK: Changes and replies from the host

    /// Applies everything queued; returns how many items there were.
    private func processInbox() -> Int {
        let items = inbox.takeAll()
        for item in items {
            switch item {
            case .change(let change, let tag):
                let (frame, sent) = state.apply(change, tag: tag)
                if let tag, let sent { sentByCommand[tag, default: []].append(sent) }
                for client in clients.values where client.isSubscribed {
                    client.enqueueEvent(frame, seq: state.seq, limit: limits.maxQueuedBytesPerClient)
                }
            case .reply(let tag, let result):
                let sent = sentByCommand.removeValue(forKey: tag) ?? []
                if let client = clients[tag.client] {
                    client.enqueue(Self.replyFrame(id: tag.command, result: result, sent: sent))
                }
            }
        }
        return items.count
    }

    // MARK: Clients

    private func acceptClients() {
        while true {
            let result: UnixListener.AcceptResult
            do {
                result = try listener.accept()
            } catch {
                return  // EMFILE and friends: try again on the next wake
            }
            switch result {
            case .noPendingConnection:
                return
            case .rejected:
                continue
            case .accepted(let connection):
                admit(connection, needsAuth: false)
            }
        }
    }

    /// Accepts pending TCP connections. They get nothing of the host until their auth frame
    /// is accepted (see ``handleAuth(of:)``).
    private func acceptTCPClients() {
        guard let tcp else { return }
        while true {
            let accepted: UnixConnection?
            do {
                accepted = try tcp.listener.accept()
            } catch {
                return  // EMFILE and friends: try again on the next wake
            }
            guard let connection = accepted else { return }
            admit(connection, needsAuth: true)
        }
    }

    /// Adds a new client (or refuses it when the agent is full), greeting it unless it must
    /// authenticate first.
    private func admit(_ connection: UnixConnection, needsAuth: Bool) {
        // Connections that have not authenticated yet may take only a few of the client slots, so
        // a stranger on the TCP port cannot crowd out the inspectors on the Unix socket. One more
        // is closed at once, unanswered: it has not proven anything.
        if needsAuth, clients.values.count(where: \.isAwaitingAuth) >= limits.maxClientsAwaitingAuth {
            connection.close()
            return
        }
        nextClientId += 1
        let client = AgentClient(
            id: nextClientId, connection: connection,
            handshakeDeadline: Date().addingTimeInterval(limits.handshakeSeconds),
            maxFrameBytes: limits.maxClientFrameBytes, needsAuth: needsAuth)
        if clients.count >= limits.maxClients {
            client.enqueue(
                Self.replyFrame(
                    id: nil,
                    result: .failure(
                        InspectorError(
                            .tooManyClients,
                            "this host already serves \(limits.maxClients) inspectors; close one and try again")),
                    sent: []))
            _ = client.flush()
            connection.close()
            return
        }
        clients[client.id] = client
        if !needsAuth { client.enqueue(helloFrame()) }
    }

    private func readFrom(_ client: AgentClient) {
        var buffer = [UInt8](repeating: 0, count: Self.readChunkBytes)
        for _ in 0..<16 {  // bounded per pass, so one busy client cannot starve the others
            guard client.unhandledFrames.isEmpty, client.acceptsInput(limit: limits.maxQueuedBytesPerClient) else { return }
            let result: UnixConnection.ReadResult
            do {
                result = try buffer.withUnsafeMutableBytes { try client.connection.read(into: $0) }
            } catch {
                drop(client)
                return
            }
            switch result {
            case .wouldBlock:
                return
            case .endOfFile:
                drop(client)
                return
            case .bytes(let count):
                let frames = buffer.withUnsafeBytes { client.framer.feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                client.unhandledFrames.append(contentsOf: frames)
                if case .awaitingAuth = client.phase, client.unhandledFrames.isEmpty,
                    client.framer.bufferedByteCount > ClientAuth.maxFrameBytes
                {
                    // A first line already too long to be an auth frame: refused now, not at its end.
                    client.unhandledFrames.append(.oversized(byteCount: client.framer.bufferedByteCount))
                }
                handleUnhandledFrames(of: client)
                guard clients[client.id] != nil else { return }
            }
        }
    }

    /// Handles the frames already read from `client`, in order, until its queue of unread frames
    /// reaches the limit; the rest wait for the client to read (back-pressure on input).
    private func handleUnhandledFrames(of client: AgentClient) {
        switch client.phase {
        case .refused:
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

    /// Judges a TCP client's first line when its turn comes; returns whether the client is now
    /// authenticated (its hello is queued and its later frames may be handled).
    private func handleAuth(of client: AgentClient) -> Bool {
        guard let tcp, let first = client.unhandledFrames.first else { return false }
        let now = Date()
        guard case .line(let line) = first, line.count <= ClientAuth.maxFrameBytes else {
            tcp.recordFailure(now: now)
            refuseAuth(client, InspectorError(.authRequired, AgentTCPServer.requiredMessage))
            return false
        }
        guard tcp.mayJudge(now: now) else { return false }  // judged on a later pass
        client.unhandledFrames.removeFirst()
        switch tcp.judge(line, now: now) {
        case .accepted:
            client.phase = .awaitingHello(deadline: now.addingTimeInterval(limits.handshakeSeconds))
            client.enqueue(helloFrame())
            return true
        case .refused(let error):
            refuseAuth(client, error)
            return false
        }
    }

    /// Sends `error` (no host data in it) and closes the connection once it is written.
    private func refuseAuth(_ client: AgentClient, _ error: InspectorError) {
        client.phase = .refused
        client.unhandledFrames.removeAll()
        client.enqueue(Self.replyFrame(id: nil, result: .failure(error), sent: []))
        client.closeAfterFlush = true
    }

    private func handleLine(_ line: [UInt8], from client: AgentClient) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }  // blank lines are ignored
        // Depth first: JSONDecoder recurses once per level, and a few hundred levels in a
        // frame of a few hundred bytes would overflow the agent thread's stack inside the host.
        if let problem = JSONSyntaxCheck.firstProblem(in: line, maxDepth: WireProtocol.maxClientFrameDepth) {
            protocolError(client, id: nil, InspectorError(.malformedFrame, "bad frame: invalid JSON at \(problem)"))
            return
        }
        let frame: IncomingFrame
        do {
            frame = try IncomingFrame.decoder.decode(IncomingFrame.self, from: Data(line))
        } catch {
            let problem = JSONSyntaxCheck.firstProblem(in: line).map { "invalid JSON at \($0)" } ?? "not a frame object with a known \"kind\""
            protocolError(client, id: nil, InspectorError(.malformedFrame, "bad frame: \(problem)"))
            return
        }
        switch client.phase {
        case .awaitingAuth, .refused:
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
                        sent: []))
                client.closeAfterFlush = true
                return
            }
            client.name = frame.client ?? "unknown"
            let subscribe = frame.subscribe ?? true
            client.phase = .ready(subscribed: subscribe)
            if subscribe { client.enqueue(state.snapshotFrame()) }
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
                    client.enqueue(Self.replyFrame(id: id, result: .failure(error), sent: []))
                }
            case .success(.snapshot):
                client.enqueue(Self.replyFrame(id: id, result: .success(["seq": .number(Double(state.seq))]), sent: []))
                client.enqueue(state.snapshotFrame())
            case .success(.ping):
                client.enqueue(Self.replyFrame(id: id, result: .success([:]), sent: []))
            case .success(let command):
                execute(command, tag: AgentInbox.CommandTag(client: client.id, command: id))
            }
        }
    }

    private func execute(_ command: InspectorCommand, tag: AgentInbox.CommandTag) {
        let executor = executor
        let inbox = inbox
        Task { @MainActor in
            let result = executor.run(command, tag: tag)
            // A host that learns later what a command sent (GBGBridge's page script) gets a
            // moment to report it, so the reply carries the messages sent as it does natively.
            if case .success = result { await executor.settle(tag) }
            inbox.push(.reply(tag: tag, result: result))
        }
    }

    private func protocolError(_ client: AgentClient, id: String?, _ error: InspectorError) {
        client.protocolErrors += 1
        client.enqueue(Self.replyFrame(id: id, result: .failure(error), sent: []))
        if client.protocolErrors >= limits.maxProtocolErrors {
            client.enqueue(
                Self.replyFrame(
                    id: nil,
                    result: .failure(
                        InspectorError(.tooManyErrors, "\(client.protocolErrors) bad frames; closing the connection")),
                    sent: []))
            client.closeAfterFlush = true
        }
    }

    private func drop(_ client: AgentClient) {
        client.connection.close()
        clients.removeValue(forKey: client.id)
        sentByCommand = sentByCommand.filter { $0.key.client != client.id }
    }

    private func housekeeping() {
        let now = Date()
        for client in Array(clients.values) {
            // A TCP client silent past the deadline; one whose line waits for its turn is not.
            if case .awaitingAuth(let deadline) = client.phase, now > deadline, client.unhandledFrames.isEmpty {
                tcp?.recordFailure(now: now)
                refuseAuth(
                    client,
                    InspectorError(
                        .authRequired,
                        "no auth frame within \(Self.secondsText(limits.handshakeSeconds)) seconds; \(AgentTCPServer.requiredMessage)"))
            }
            if case .awaitingHello(let deadline) = client.phase, now > deadline, !client.closeAfterFlush {
                client.enqueue(
                    Self.replyFrame(
                        id: nil,
                        result: .failure(
                            InspectorError(
                                .handshakeRequired,
                                "no hello within \(Self.secondsText(limits.handshakeSeconds)) seconds; closing the connection")),
                        sent: []))
                client.closeAfterFlush = true
            }
            if client.isStalled(longerThan: limits.stalledClientSeconds, now: now) {
                drop(client)
            }
        }
    }

    private func flushAll() {
        for client in Array(clients.values) {
            guard client.flush() else {
                drop(client)
                continue
            }
            if let gap = client.takeGapIfCaughtUp() {
                client.enqueue(Self.gapFrame(gap))
                client.enqueue(state.snapshotFrame())
                guard client.flush() else {
                    drop(client)
                    continue
                }
            }
            if client.closeAfterFlush, !client.wantsToWrite { drop(client) }
        }
    }

    /// `5` for 5.0, `0.5` for 0.5: a deadline below one second must not read "0 seconds".
    static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e9 ? String(Int(seconds)) : String(seconds)
    }

    // MARK: Frames

    private func helloFrame() -> [UInt8] {
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
            if let json = try? JSONEncoder().encode(value) { writer.rawJSON(json) } else { writer.null() }
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

    static let decoder = JSONDecoder()
}
