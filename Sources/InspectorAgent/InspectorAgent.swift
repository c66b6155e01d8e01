import BridgeCore
import Foundation
import InspectorProtocol
import SocketSupport

/// Exposes a running bridge host to inspectors on a per-user Unix socket.
///
/// Start it with one call and keep the returned agent; stop it when the host goes away:
///
/// ```swift
/// let agent = try host.startInspector(name: "my-app")
/// print("inspect with: bridge-inspector --socket \(agent.socketPath)")
/// // ...
/// agent.stop()          // removes the socket
/// ```
///
/// Any ``InspectableHost`` can be served: this project's `BridgeHost` (natively, above), or an app
/// embedding GBG's GBGBridge through the `GBGBridgeInspector` library's adapter.
///
/// The agent never slows or breaks the host: the host's main actor only appends each change to a
/// queue (no encoding, no I/O); everything else happens on the agent's own thread. Clients are
/// limited in number, in queued bytes and in frame size; a client that falls behind gets a gap
/// marker and a fresh snapshot, and one that stays behind is disconnected. Nothing process-wide
/// (signals, umask, working directory) is changed. The protocol is in `docs/inspector-protocol.md`.
public final class InspectorAgent: Sendable {
    /// Where the agent listens.
    public let socketPath: String
    /// Who the agent says it serves, as its hello tells clients (for this package's tests and
    /// tools; an app reads ``socketPath`` and ``tcpEndpoint``).
    package let hostInfo: WireHostInfo
    /// Where the agent also listens over TCP, and its token; nil unless asked (``InspectorTCPOptions``).
    public let tcpEndpoint: InspectorTCPEndpoint?

    let loop: AgentLoop
    private let reporting: any InspectionReporting
    private let executor: CommandExecutor

    /// Starts serving `host` (any ``InspectableHost``) as `name`. `BridgeHost` users call
    /// `BridgeHost.startInspector(name:socketPath:limits:tcp:journeyControl:)` instead; adapters for
    /// other bridges call this.
    ///
    /// The socket is `socketPath` when given, else `BRIDGE_INSPECTOR_SOCKET`, else
    /// `<name>.<pid>.sock` in the per-user directory. The result is not discardable on purpose:
    /// an agent nobody keeps stops at once.
    ///
    /// With `journeyControl`, inspectors can detach, re-attach and reload the journey's web view
    /// (the `journey` command); without it, a `BridgeHost` gets a ``BridgeHostJourneyControl``
    /// that detaches and re-attaches but cannot reload, and any other host lists
    /// `HostFeature.journeyControl` as unsupported.
    @MainActor
    public convenience init(
        serving host: any InspectableHost, name: String, socketPath: String? = nil, limits: AgentLimits = AgentLimits(),
        tcp: InspectorTCPOptions? = nil, journeyControl: (any JourneyControl)? = nil
    ) throws {
        try self.init(
            host: host, name: name, location: SocketLocation.resolve(option: socketPath), limits: limits, tcp: tcp,
            journeyControl: journeyControl)
    }

    @MainActor
    init(
        host: any InspectableHost, name: String, location: SocketLocation, limits: AgentLimits, tcp tcpOptions: InspectorTCPOptions? = nil,
        journeyControl: (any JourneyControl)? = nil
    ) throws {
        let pid = Int(ProcessInfo.processInfo.processIdentifier)
        let listener: UnixListener
        switch location {
        case .explicit(let path):
            listener = try UnixListener(path: path)
        case .directory(let directory):
            listener = try UnixListener(directory: directory, name: SocketName(name: name, pid: Int32(pid)))
        }
        let tcp: AgentTCPServer?
        do {
            tcp = try tcpOptions.map(AgentTCPServer.init(options:))
        } catch {
            listener.close()
            throw error
        }
        let inbox: AgentInbox
        do {
            inbox = try AgentInbox()
        } catch {
            listener.close()
            tcp?.listener.close()
            throw error
        }
        let observed = Self.observe(host, name: name, limits: limits, inbox: inbox, journeyControl: journeyControl)
        reporting = observed.reporting
        executor = observed.executor
        self.socketPath = listener.path
        self.hostInfo = observed.info
        self.tcpEndpoint = tcp?.endpoint
        self.loop = AgentLoop(
            listener: listener, inbox: inbox, state: observed.state, executor: observed.executor, limits: limits, tcp: tcp)
        loop.start()
    }

    /// What a driver of the agent's core needs from `host`: who it is, the agent's copy of its
    /// state, the executor of commands, and its changes flowing into `inbox` from now on. Made
    /// in one main-actor turn, so no change can fall between the snapshot and the reporting.
    @MainActor
    static func observe(
        _ host: any InspectableHost, name: String, limits: AgentLimits, inbox: AgentInbox, journeyControl: (any JourneyControl)? = nil
    ) -> (
        info: WireHostInfo, state: AgentState, executor: CommandExecutor, reporting: any InspectionReporting
    ) {
        var profile = host.inspectionProfile
        // A native host can always detach and re-attach its own journey; only a reload needs
        // the embedding process.
        let journeyControl = journeyControl ?? (host as? BridgeHost).map { BridgeHostJourneyControl(host: $0) }
        if journeyControl == nil, profile.unsupported[.journeyControl] == nil {
            profile.unsupported[.journeyControl] = CommandExecutor.noJourneyControl
        }
        let unsupported = Dictionary(uniqueKeysWithValues: profile.unsupported.map { ($0.key.rawValue, $0.value) })
        let info = WireHostInfo(
            name: name, pid: Int(ProcessInfo.processInfo.processIdentifier), hostVersion: profile.hostVersion,
            environment: profile.environment, startedAt: AgentState.ms(Date()), inspection: profile.path,
            unsupported: unsupported.isEmpty ? nil : unsupported, receivedMessagesCap: profile.receivedMessagesCap)
        let executor = CommandExecutor(host: host, unsupported: profile.unsupported, limits: limits, journeyControl: journeyControl)
        executor.breakpoints.publish = { list in inbox.push(.breakpoints(list)) }
        executor.breakpoints.noteSkipped = { skipped in inbox.push(.holdSkipped(skipped)) }
        executor.faults.publish = { list in inbox.push(.faults(list)) }
        executor.faults.publishHits = { list in inbox.push(.faultHits(list)) }
        let state = AgentState(host: info, snapshot: host.inspectionSnapshot(), limits: limits)
        let sink = InspectionSink(
            inbox: inbox,
            running: { executor.current.map(InspectionCause.init) },
            pushCausedByRunning: { change, isLastLogged in inbox.pushCausedByRunning(change, isLastLogged: isLastLogged) },
            pushTrafficCausedByRunning: { direction, message, json, lent, time, marks in
                inbox.pushTraffic(direction, message, json: json, lent: lent, time: time, marks: marks)
            })
        executor.runningChanged = { tag in inbox.setRunning(tag) }
        return (info, state, executor, host.startReporting(to: sink))
    }

    /// Stops serving: disconnects every client, removes the socket file and stops observing
    /// the host. Safe to call more than once and from any thread.
    public func stop() {
        loop.stop()
        let reporting = reporting
        let executor = executor
        // What breakpoints hold is released as it was: the host never waits on a stopped agent.
        if Thread.isMainThread {
            MainActor.assumeIsolated {
                executor.faults.detach()
                executor.breakpoints.detach()
                reporting.stop()
            }
        } else {
            Task { @MainActor in
                executor.faults.detach()
                executor.breakpoints.detach()
                reporting.stop()
            }
        }
    }

    /// An agent nobody holds any more stops as ``stop()`` does: socket removed, clients
    /// disconnected, and the host no longer observed.
    deinit {
        stop()
    }

    /// The number of connected clients (for tests and diagnostics).
    public var clientCount: Int { loop.clientCount }

    /// The number of clients that have finished their handshake and follow the host's traffic
    /// (they hold a snapshot and get every change after it). A host that must not start its
    /// journey before someone watches, such as `bridge-inspector host --wait-for-inspector`,
    /// waits for this to rise above zero.
    public var subscriberCount: Int { loop.subscriberCount }

    /// Bytes the agent holds: its copy of the state (log, pending records, malformed inputs,
    /// error history) plus, for every client, its queue, the unfinished line it is sending and
    /// the frames read from it but not yet handled. Never more than
    /// ``AgentLimits/heldBytesBound`` (docs/inspector-protocol.md, section 9).
    public var heldBytes: Int { loop.heldBytes }
}

extension BridgeHost {
    /// Starts the inspector agent for this host and returns it; keep it, and call
    /// ``InspectorAgent/stop()`` when the host goes away.
    ///
    /// The socket is `socketPath` when given, else the path in `BRIDGE_INSPECTOR_SOCKET` when set,
    /// else `<name>.<pid>.sock` in the per-user directory (`$XDG_RUNTIME_DIR/bridge-inspector/`
    /// or `/tmp/bridge-inspector-<uid>/`, created 0700 and refused if anyone else could use it).
    ///
    /// Throws a readable error when the socket cannot be served: a live host already serves that
    /// path, the path is too long for a Unix socket, or the directory is unsafe.
    /// With `tcp`, the agent also listens on a loopback TCP port for a phone's USB port forward
    /// and logs one line with the port and token (see ``InspectorTCPOptions``).
    ///
    /// The result is not discardable on purpose: an agent nobody keeps stops at once.
    /// Inspectors can always detach and re-attach the journey's web view; with `journeyControl`
    /// (a ``BridgeHostJourneyControl`` given a way to reload), they can reload its page too.
    public func startInspector(
        name: String, socketPath: String? = nil, limits: AgentLimits = AgentLimits(), tcp: InspectorTCPOptions? = nil,
        journeyControl: (any JourneyControl)? = nil
    ) throws -> InspectorAgent {
        try InspectorAgent(serving: self, name: name, socketPath: socketPath, limits: limits, tcp: tcp, journeyControl: journeyControl)
    }
}
