import Foundation
import InspectorClient
import InspectorProtocol

/// `bridge-inspector wait-for --held`: blocks until a message held at a breakpoint (any
/// inspector's) matches the filter, then prints its hold id, so a script can `release`, `answer`
/// or `drop` it without knowing how many were held before it.
///
/// The oldest matching hold already there counts unless `new` is set; holds resolved while
/// waiting are forgotten; after a gap the snapshot is looked at again.
struct HeldWait {
    let selection: HostSelection
    let filter: LogFilter?
    let new: Bool
    let timeout: Double?
    let json: Bool

    func run() throws {
        let session = try selection.session(subscribe: true, client: "bridge-inspector wait-for --held")
        defer { session.close() }
        let loop = FrameLoop(session: session)
        defer { loop.cancel() }
        let snapshot = try session.firstSnapshot()
        guard let heldAtStart = snapshot.state.held else {
            throw ScriptError.failure(
                "this host's agent predates breakpoints: nothing can be held", hint: "update the inspector agent the host embeds")
        }
        let ignored = new ? Set(heldAtStart.map(\.id)) : []

        var result: String?
        if let first = heldAtStart.first(where: { matches($0, ignored: ignored) }) { result = try output(first) }
        if result == nil {
            let end = try loop.run(timeout: timeout) { frame in
                switch frame {
                case .event(_, .held(let held))?:
                    if matches(held, ignored: ignored) { result = try output(held) }
                case .snapshot(_, let state)?:
                    if let held = state.held?.first(where: { matches($0, ignored: ignored) }) { result = try output(held) }
                default:
                    break
                }
                return result != nil
            }
            switch end {
            case .finished: break
            case .interrupted: throw ScriptError.timeout("interrupted before a matching message was held")
            case .timedOut: throw ScriptError.timeout("no matching message was held within \(timeout ?? 0) seconds")
            case .hostGone: throw ScriptError.hostWentAway(session.socketPath, while: "while waiting")
            }
        }
        if let result {
            if json { StandardStreams.printJSON(result) } else { StandardStreams.printExact(result) }
        }
    }

    private func matches(_ held: WireHeld, ignored: Set<String>) -> Bool {
        guard !ignored.contains(held.id) else { return false }
        guard let filter else { return true }
        let origin: MessageOrigin = held.direction == .received ? .journey : .host
        let entry = LogEntry(WireTraffic(seq: 0, direction: held.direction, time: held.since, origin: origin, bytes: 0, message: held.message))
        return filter.matches(entry, pending: [])
    }

    private func output(_ held: WireHeld) throws -> String {
        json ? try ScriptOutput.json(held) : ScriptOutput.value(held.id)
    }
}
