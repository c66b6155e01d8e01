import ArgumentParser
import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

/// `bridge-inspector wait-for`: blocks until a pending request (or a busy slot) appears.
struct WaitForCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait-for",
        abstract: "Wait for a matching pending request (or a busy slot, or a held message); print its id.",
        discussion: """
            Blocks until a request that matches --filter waits in the host's pendingRequests, then \
            prints its correlation id, so a script can answer it with `bridge-inspector respond`. \
            A request already pending counts (the oldest matching one is printed) unless --new is \
            given. With --slot it waits instead until that capture slot is busy and prints the id \
            of the request holding it (answer it with `bridge-inspector slot ... complete`). \
            With --held it waits instead for a message held at a breakpoint (any inspector's) \
            that matches --filter, and prints its hold id for `release`, `answer` or `drop`; one \
            already held counts (the oldest) unless --new is given.

            A request the journey has abandoned is skipped, with a note on standard error: one \
            pending longer than the journey's timeout (the web SDK's 30 s, 5 s for \
            capability.query) gets an answer that reaches no one. --include-abandoned takes it \
            anyway; --journey-timeout SECONDS says the journey waits another time than the \
            web SDK's default.

            The filter language is the one of `bridge-inspector tail`; action:, id: and body: are \
            the useful terms here. --json prints the whole pending request (or slot) as JSON.

            Exit status: 0 found; 4 --timeout passed first; 3 the host went away first.

            Examples:
              id=$(bridge-inspector wait-for --filter action:nfc.read --timeout 30)
              bridge-inspector respond "$id" --data '{"uid":"04A2"}'

              bridge-inspector wait-for --slot document && bridge-inspector slot document complete

              hold=$(bridge-inspector wait-for --held --filter type:response)
              bridge-inspector release "$hold" --status error --error-code TIMEOUT
            """)

    @OptionGroup var selection: HostSelection

    @Option(help: ArgumentHelp("Wait for a pending request that matches this filter. Default: any.", valueName: "expr"))
    var filter: String?

    @Option(help: ArgumentHelp("Wait until this capture slot is busy instead.", valueName: "slot"))
    var slot: SlotArgument?

    @Flag(help: "Wait for a message held at a breakpoint instead, and print its hold id.")
    var held = false

    @Flag(help: "Ignore requests already pending (or a slot already busy, or messages already held) when starting.")
    var new = false

    @Option(help: ArgumentHelp("Give up after this many seconds (exit 4). Default: wait as long as it takes.", valueName: "seconds"))
    var timeout: Double?

    @Flag(help: "Print the pending request (or the slot, or the held message) as one JSON object instead of its id.")
    var json = false

    @OptionGroup var abandoned: AbandonedOptions

    func run() throws {
        try Script.run {
            let filter = try FilterArgument.parse(self.filter, option: "--filter")
            if filter != nil, slot != nil { throw ScriptError.usage("--filter and --slot cannot be used together", hint: "busy slots hold capture requests, which are never pending") }
            if held, slot != nil { throw ScriptError.usage("--held and --slot cannot be used together", hint: "wait for one of them") }
            try Seconds.check(timeout, option: "--timeout")
            if held {
                try HeldWait(selection: selection, filter: filter, new: new, timeout: timeout, json: json).run()
                return
            }
            let timeouts = try abandoned.timeouts()

            let session = try selection.session(subscribe: true, client: "bridge-inspector wait-for")
            defer { session.close() }
            let loop = FrameLoop(session: session)
            defer { loop.cancel() }
            let snapshot = try session.firstSnapshot()
            var pendingIds = Set(snapshot.state.pending.map(\.correlationId))
            let busyAtStart = slot.flatMap { kind in snapshot.state.slots.first { $0.kind == kind.kind }?.activeRequest }

            var clock = HostClock()
            var reportedAbandoned: Set<String> = []
            func matching(_ pending: WirePending) -> Bool {
                guard matchesFilter(pending) else { return false }
                let hostNow = clock.hostNow(localNow: Date().timeIntervalSince1970 * 1000)
                guard abandoned.includeAbandoned || !timeouts.isAbandoned(pending, hostNow: hostNow) else {
                    if reportedAbandoned.insert(pending.correlationId).inserted {
                        StandardStreams.printError(
                            "skipped \(ScriptOutput.safe(pending.action)) \(ScriptOutput.safe(pending.correlationId)): pending for \(TimeFormat.duration(ms: hostNow - pending.since)), so the journey has given up on it (--include-abandoned takes it anyway)")
                    }
                    return false
                }
                return true
            }
            func matchesFilter(_ pending: WirePending) -> Bool {
                guard let filter else { return true }
                let entry = LogEntry(WireTraffic(seq: 0, direction: .received, time: pending.since, origin: .journey, bytes: 0, message: pending.message), json: pending.messageJSON)
                return filter.matches(entry, pending: pendingIds)
            }
            func found(_ slotState: WireSlot) -> Bool {
                guard let slot, slotState.kind == slot.kind, let active = slotState.activeRequest else { return false }
                return !(new && active == busyAtStart)
            }

            var result: String?
            if !new {
                if slot != nil {
                    if let busy = snapshot.state.slots.first(where: found) { result = try output(busy) }
                } else if let request = snapshot.state.pending.first(where: matching) {
                    result = try output(request)
                }
            }
            if result == nil {
                let end = try loop.run(timeout: timeout) { frame in
                    if let frame { clock.observe(frame, at: Date().timeIntervalSince1970 * 1000) }
                    switch frame {
                    case .event(_, .pendingAdded(let request))?:
                        pendingIds.insert(request.correlationId)
                        if slot == nil, matching(request) { result = try output(request) }
                    case .event(_, .pendingRemoved(let id))?:
                        pendingIds.remove(id)
                    case .event(_, .slot(let slotState))?:
                        if found(slotState) { result = try output(slotState) }
                    case .snapshot(_, let state)?:
                        // After a gap: look again at everything pending now.
                        pendingIds = Set(state.pending.map(\.correlationId))
                        if slot != nil {
                            if let busy = state.slots.first(where: found) { result = try output(busy) }
                        } else if let request = state.pending.first(where: matching) {
                            result = try output(request)
                        }
                    default:
                        break
                    }
                    return result != nil
                }
                switch end {
                case .finished: break
                case .interrupted: throw ScriptError.timeout("interrupted before \(slot.map { "the \($0.rawValue) slot became busy" } ?? "a matching request became pending")")
                case .timedOut:
                    throw ScriptError.timeout(
                        "\(slot.map { "the \($0.rawValue) slot did not become busy" } ?? "no matching request became pending") within \(timeout ?? 0) seconds")
                case .hostGone:
                    throw ScriptError.hostWentAway(session.socketPath, while: "while waiting")
                }
            }
            if let result {
                // A correlation id alone is exact for the script reading it (ScriptOutput.value).
                if json { StandardStreams.printJSON(result) } else { StandardStreams.printExact(result) }
            }
        }
    }

    private func output(_ request: WirePending) throws -> String {
        json ? try ScriptOutput.json(request, exact: [(nil, [request.messageJSON])]) : ScriptOutput.value(request.correlationId)
    }

    private func output(_ slot: WireSlot) throws -> String {
        json ? try ScriptOutput.json(slot) : ScriptOutput.value(slot.activeRequest ?? "")
    }
}
