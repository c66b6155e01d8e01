import Foundation
import InspectorClient
import SocketSupport

/// A host `tail --follow` and `record` follow by name (`--host NAME`): waited for when it does
/// not run yet, and attached again when it is run again (a new process, a new socket).
struct FollowedHost {
    let follower: HostFollower

    /// The name followed.
    var name: String { follower.target.name }

    /// Waits for a host of the name (saying so once on stderr when there is none yet, and when
    /// several run which one was taken) and hands its socket to `attach`. A host that goes away
    /// while being attached is waited for again. `nil` when `deadline` passed or `stopped()`.
    /// `announced`: the caller already said it waits, so nothing more is printed about it.
    func attach<Attached>(
        deadline: Date?, stopped: () -> Bool, announced alreadyAnnounced: Bool = false, _ attach: (String) throws -> Attached
    ) throws -> Attached? {
        var announced = alreadyAnnounced
        while !stopped() {
            let found: HostFollower.Found?
            do {
                found = try follower.newest()
            } catch {
                throw Script.classify(error)
            }
            if let found {
                if let note = found.note { StandardStreams.printError("note: \(note)") }
                do {
                    return try attach(found.socket.path)
                } catch let error as InspectorClientError {
                    // It stopped again between the look and the attach: look again.
                    switch error {
                    case .noHost, .closed, .handshakeTimedOut: break
                    default: throw Script.classify(error)
                    }
                } catch let error as SocketSystemError where [ECONNRESET, ECONNREFUSED, ENOENT, EPIPE].contains(error.code) {
                    _ = error  // the same: a host stopping while we attached
                }
            } else if !announced {
                StandardStreams.printError("waiting for a host named \(ScriptOutput.safe(name))… (Ctrl-C stops)")
                announced = true
            }
            var wait = HostFollower.pollInterval
            if let deadline {
                let remaining = deadline.timeIntervalSinceNow
                if remaining <= 0 { return nil }
                wait = min(wait, remaining)
            }
            Thread.sleep(forTimeInterval: wait)
        }
        return nil
    }
}

extension HostSelection {
    /// The host to follow across runs: `--host NAME` without a pid, when no socket is named
    /// (`--socket`, `$BRIDGE_INSPECTOR_SOCKET`); `nil` otherwise.
    var followedHost: FollowedHost? {
        guard let host, SocketEnvironment.explicitSocketPath(option: socket) == nil else { return nil }
        let target = HostTarget(parsing: host)
        return target.follows ? FollowedHost(follower: HostFollower(target: target)) : nil
    }
}
