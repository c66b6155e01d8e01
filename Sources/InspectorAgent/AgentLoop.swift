import BridgeCore
import Foundation
import InspectorProtocol
import SocketSupport
import ThreadSupport

/// The agent's thread: the poll driver of its core (``AgentCore``).
///
/// One `poll` loop over the Unix listener, the wake pipe, the optional TCP listener and the
/// clients' sockets. It does the I/O and nothing else: it accepts connections, reads what the
/// core wants read, hands it the host's changes from the inbox and the time, closes what the
/// core gives up, and sleeps until a socket is ready, the host pushes, or the core's next
/// deadline. The core writes to the sockets itself, through ``AgentOutput``, taking only what
/// each socket takes without waiting.
///
/// Everything in here runs on that one thread, except `start`, `stop` and the counters, which
/// are shared through `shared`.
final class AgentLoop: @unchecked Sendable {
    private let listener: UnixListener
    private let inbox: AgentInbox
    private let core: AgentCore
    /// The opt-in TCP listener and its token, or nil.
    private let tcp: AgentTCPServer?

    /// The open sockets, by the id the core knows them by.
    private var connections: [Int: UnixConnection] = [:]
    private var nextConnectionId = 0

    /// What other threads read or set: whether the loop started and was asked to stop, and the
    /// counters it publishes after each pass.
    private struct Shared {
        /// Whether `start` ran. The thread itself is not kept: it keeps its block, which holds
        /// this loop, so keeping the thread here made a cycle that leaked the loop and its copy
        /// of the state (up to the whole log) after `stop` (found by LeakSanitizer).
        var started = false
        var stopping = false
        var clientCount = 0
        var subscriberCount = 0
        var heldBytes = 0
        /// The largest event backlog of any client seen by a pass since the last reset
        /// (``AgentCore/eventBacklogHighWater``), kept when the client leaves.
        var eventBacklogHighWater = 0
        /// Whether the core's high-water marks are to start again at the next pass.
        var eventBacklogResetPending = false
    }

    private let shared = Locked(Shared())
    private let finished = DispatchSemaphore(value: 0)

    init(
        listener: UnixListener, inbox: AgentInbox, state: AgentState, executor: CommandExecutor, limits: AgentLimits,
        tcp: AgentTCPServer? = nil
    ) {
        self.listener = listener
        self.tcp = tcp
        self.inbox = inbox
        self.core = AgentCore(
            state: state, limits: limits, auth: tcp?.gate, now: Date(), clientLeft: { executor.clientLeft($0) }
        ) { command, tag in
            executor.start(command, tag: tag, replyingTo: inbox)
        }
    }

    func start() {
        shared.withLock { $0.started = true }
        DedicatedThread.start(name: "bridge-inspector.agent", stackSize: 1 << 20) { [self] in run() }
    }

    /// Ends the loop and waits for it (bounded), then closes the listener (removing the socket).
    func stop() {
        let (alreadyStopping, started) = shared.withLock { shared in
            defer { shared.stopping = true }
            return (shared.stopping, shared.started)
        }
        guard !alreadyStopping else { return }
        inbox.wakePipe.wake()
        if started { _ = finished.wait(timeout: .now() + 5) }
        inbox.close()
        listener.close()
        tcp?.listener.close()
    }

    var clientCount: Int { shared.withLock { $0.clientCount } }

    var subscriberCount: Int { shared.withLock { $0.subscriberCount } }

    var heldBytes: Int { shared.withLock { $0.heldBytes } }

    /// The most event bytes any client had queued, as of the loop's last pass, since the agent
    /// started or ``resetEventBacklogHighWater()``.
    var eventBacklogHighWater: Int { shared.withLock { $0.eventBacklogHighWater } }

    /// Starts ``eventBacklogHighWater`` again: at 0 now, and from what each client has queued
    /// at the loop's next pass (which this wakes).
    func resetEventBacklogHighWater() {
        shared.withLock { shared in
            shared.eventBacklogHighWater = 0
            shared.eventBacklogResetPending = true
        }
        inbox.wakePipe.wake()
    }

    private var isStopping: Bool { shared.withLock { $0.stopping } }

    // MARK: The loop

    private func run() {
        defer {
            // The host's last changes still reach the clients, as far as their sockets take
            // them without waiting: a recording ends with everything up to the stop.
            _ = processInbox()
            core.finish(now: Date())
            closeGivenUp()
            for connection in connections.values { connection.close() }
            connections.removeAll()
            publish()
            // The agent's copy of the log is this thread's: it is freed here, not by the host's
            // thread when `stop()` drops the agent (up to the whole log, record by record).
            core.releaseRecords()
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
            for (id, connection) in connections {
                // A hang-up or error is reported whatever is asked for, so a client whose input
                // is paused is still noticed when it goes.
                var events: PollEvents = core.wantsToRead(id) ? .readable : []
                if core.wantsToWrite(id) { events.insert(.writable) }
                descriptors.append(PollDescriptor(descriptor: connection.rawValue, events: events))
                order.append(id)
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
                let events = descriptors[index + 3].returnedEvents
                if events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) {
                    readFrom(id)
                }
            }
            if !descriptors[0].returnedEvents.isEmpty { acceptClients() }
            if !descriptors[2].returnedEvents.isEmpty { acceptTCPClients() }
            core.service(now: Date())
            closeGivenUp()
            publish()
            // While the host is busy, let its changes gather for a moment before the next pass:
            // taking them in batches means fewer passes, fewer wake-ups (each costs the host a
            // write to the wake pipe) and less contention on the inbox's lock, so the host's cost
            // per change stays low. An idle agent never naps, so the first change after a pause
            // is handled at once.
            if processed > 0 { usleep(Self.batchNapMicroseconds) }
        }
    }

    /// How long an idle loop waits in `poll`: 250 ms, or less when the core has a deadline
    /// sooner (a handshake or stall limit, or a refused TCP client's time to be told), so its time
    /// limits hold without blocking the loop.
    private func idleTimeoutMilliseconds() -> Int32 {
        guard let deadline = core.nextDeadline else { return 250 }
        let seconds = deadline.timeIntervalSince(Date())
        return seconds <= 0 ? 1 : Int32(min(250, max(1, (seconds * 1000).rounded(.up))))
    }

    /// How long the loop waits after a pass that handled changes (well under the latency a
    /// person can see; at 1,000 changes a second, most changes find the agent idle).
    static let batchNapMicroseconds: UInt32 = 200

    /// Bytes read from a client at once: the frames of one read are held until handled.
    static let readChunkBytes = 64 * 1024

    private func publish() {
        let held = core.heldBytes
        let clients = core.clientCount
        let subscribers = core.subscriberCount
        let backlog = core.eventBacklogHighWater
        let resetAsked = shared.withLock { shared -> Bool in
            shared.clientCount = clients
            shared.subscriberCount = subscribers
            shared.heldBytes = held
            if shared.eventBacklogResetPending {
                shared.eventBacklogResetPending = false
                return true
            }
            shared.eventBacklogHighWater = max(shared.eventBacklogHighWater, backlog)
            return false
        }
        if resetAsked { core.resetEventBacklogHighWater() }
    }

    /// Hands the core everything queued; returns how many items there were.
    private func processInbox() -> Int {
        inbox.drain { core.apply(&$0, now: Date()) }
    }

    /// Closes the connections the core gave up.
    private func closeGivenUp() {
        for id in core.takeConnectionsToClose() {
            guard let connection = connections.removeValue(forKey: id) else { continue }
            discardUnread(connection)
            connection.close()
        }
    }

    /// Reads and forgets what a connection sent that was never read (a little at most): a TCP
    /// socket closed with unread input is reset instead of closed, and the peer may then lose
    /// the last frame written to it (why it was refused).
    private func discardUnread(_ connection: UnixConnection) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<4 {
            guard case .bytes = (try? scratch.withUnsafeMutableBytes { try connection.read(into: $0) }) else { return }
        }
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
                admit(connection, transport: .unix)
            }
        }
    }

    /// Accepts pending TCP connections. They get nothing of the host until the core accepts
    /// their auth frame.
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
            admit(connection, transport: .tcp)
        }
    }

    private func admit(_ connection: UnixConnection, transport: AgentCore.Transport) {
        nextConnectionId += 1
        connections[nextConnectionId] = connection
        core.connectionOpened(nextConnectionId, transport: transport, output: connection, now: Date())
        closeGivenUp()
        // A TCP client usually sends its token with its connection: judged now, it is no longer
        // among the oldest waiting when more connections are accepted in this pass.
        if transport == .tcp, core.isOpen(nextConnectionId) { readFrom(nextConnectionId) }
    }

    private func readFrom(_ id: Int) {
        guard let connection = connections[id] else { return }
        var buffer = [UInt8](repeating: 0, count: Self.readChunkBytes)
        for _ in 0..<16 {  // bounded per pass, so one busy client cannot starve the others
            guard core.wantsToRead(id) else { return }
            let result: UnixConnection.ReadResult
            do {
                result = try buffer.withUnsafeMutableBytes { try connection.read(into: $0) }
            } catch {
                core.connectionClosedByPeer(id)
                closeGivenUp()
                return
            }
            switch result {
            case .wouldBlock:
                return
            case .endOfFile:
                core.connectionClosedByPeer(id)
                closeGivenUp()
                return
            case .bytes(let count):
                buffer.withUnsafeBytes { core.bytesRead(UnsafeRawBufferPointer(rebasing: $0[..<count]), from: id, now: Date()) }
                closeGivenUp()
                guard core.isOpen(id) else { return }
            }
        }
    }
}
