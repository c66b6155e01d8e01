import ArgumentParser
import Foundation
import InspectorClient
import InspectorProtocol
import SocketSupport

/// `bridge-inspector hosts`: the running hosts, and stale sockets.
struct HostsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hosts",
        abstract: "List the running hosts an inspector can attach to.",
        discussion: """
            Lists the sockets in the per-user directory ($BRIDGE_INSPECTOR_SOCKET_DIR when set; \
            else on macOS /tmp/bridge-inspector-<uid>, shared with apps in the iOS Simulator; \
            on Linux $XDG_RUNTIME_DIR/bridge-inspector, or /tmp/bridge-inspector-<uid>): each live host with its name, pid, host version, socket \
            and since when it runs, and every stale socket (a host that crashed left it; nobody \
            answers) marked as such. A socket that cannot be probed (another user's refuses \
            the connection) is marked unknown, with the reason (in --json, an "unknown" field): \
            it may be live, so leave it alone. --host NAME lists only hosts with that name.

            --socket PATH (or $BRIDGE_INSPECTOR_SOCKET) checks that one socket instead: exit 0 \
            when a host answers there, 3 when none does or it cannot be probed. Without it, the exit status is 0 even \
            when nothing runs (the list is then empty), so a script can wait for a host, for at \
            most ten seconds, with `for i in $(seq 100); do bridge-inspector hosts --socket PATH \
            && break; sleep 0.1; done` (docs/cli.md, Recipes, also gives up when the host's \
            process has ended).

            Examples:
              bridge-inspector hosts
              bridge-inspector hosts --json | jq -r '.[] | select(.live) | .socket'
            """)

    @OptionGroup var selection: HostSelection

    @Flag(help: "Print a JSON array of hosts (sorted keys).")
    var json = false

    /// One host, as `--json` prints it.
    struct Entry: Encodable {
        var name: String
        var pid: Int
        var socket: String
        var live: Bool
        var greeted: Bool
        var hostName: String?
        var hostVersion: String?
        var environment: String?
        /// `native`, or `public-api` for an app embedding GBG's GBGBridge (docs/real-apps.md).
        var inspection: String?
        var startedAt: Double?
        var agent: String?
        /// Why the socket could not be probed, when it could not (neither live nor stale).
        var unknown: String?
    }

    func run() throws {
        try Script.run {
            if let problem = SocketDirectoryChoice.current().problem { StandardStreams.printError("warning: \(problem)") }
            let entries = try listing()
            if json {
                StandardStreams.printJSON(try ScriptOutput.json(entries))
                return
            }
            if entries.isEmpty {
                StandardStreams.printError("no hosts in \(HostDirectory().discovery.directory.path). Start one with `bridge-inspector host` or `bridge-inspector demo`.")
                return
            }
            StandardStreams.printOut(Self.table(entries))
        }
    }

    private func listing() throws -> [Entry] {
        if selection.tcp.isGiven {
            throw ScriptError.usage(
                "`hosts` lists the hosts on this machine's sockets; --connect, --token and --token-file do not apply",
                hint: "check a host over TCP with `BRIDGE_INSPECTOR_TOKEN=T bridge-inspector snapshot --connect HOST:PORT`")
        }
        if let explicit = selection.socket ?? SocketEnvironment.explicitSocketPath() {
            guard FileManager.default.fileExists(atPath: explicit) else {
                throw ScriptError.noHost("there is no socket at \(explicit)", hint: "list the running hosts with `bridge-inspector hosts` (without --socket)")
            }
            let entry = Self.probe(explicit)
            if let unknown = entry.unknown {
                throw ScriptError.noHost("cannot attach to \(explicit): \(unknown)", hint: "it is not stale, so do not delete it; attach as the user who runs that host")
            }
            guard entry.live else {
                throw ScriptError.noHost("nobody answers on \(explicit) (a stopped host left it; it is safe to delete)", hint: "start a host with `bridge-inspector host --socket \(ScriptOutput.shellWord(explicit))`")
            }
            return [entry]
        }
        let listings: [HostListing]
        do {
            listings = try HostDirectory().list()
        } catch {
            throw Script.classify(error)
        }
        return listings.compactMap { listing in
            if let name = selection.host, listing.name != name, "\(listing.name).\(listing.pid)" != name, listing.hello?.host.name != name { return nil }
            return Entry(
                name: listing.name, pid: listing.pid, socket: listing.socketPath, live: listing.isLive, greeted: listing.hello != nil,
                hostName: listing.hello?.host.name, hostVersion: listing.hello?.host.hostVersion, environment: listing.hello?.host.environment,
                inspection: listing.hello?.host.inspectionPath, startedAt: listing.hello?.host.startedAt, agent: listing.hello?.agent, unknown: listing.unknownLiveness)
        }
    }

    /// Greets the host at an explicit socket path.
    static func probe(_ path: String) -> Entry {
        let file = (path as NSString).lastPathComponent
        let parsed = SocketName(fileName: file)
        var entry = Entry(name: parsed?.name ?? file, pid: Int(parsed?.pid ?? 0), socket: path, live: false, greeted: false)
        if let session = try? InspectorSession(socketPath: path, subscribe: false, clientName: "bridge-inspector hosts", timeout: 2) {
            let host = session.hello.host
            entry.live = true
            entry.greeted = true
            entry.name = host.name
            entry.pid = host.pid
            entry.hostName = host.name
            entry.hostVersion = host.hostVersion
            entry.environment = host.environment
            entry.inspection = host.inspectionPath
            entry.startedAt = host.startedAt
            entry.agent = session.hello.agent
            session.close()
        } else {
            switch SocketProbe.check(path: path) {
            case .live: entry.live = true
            case .stale: break
            case .unknown(let error): entry.unknown = SocketFileOwner.unknownLivenessReason(path: path, error: error)
            }
        }
        return entry
    }

    static func table(_ entries: [Entry], now: Double = Date().timeIntervalSince1970 * 1000, timeFormat: TimeFormat = TimeFormat()) -> String {
        let safe = ScriptOutput.safe
        var rows = [["NAME", "PID", "VERSION", "VIA", "SINCE", "SOCKET"]]
        for entry in entries {
            let since: String
            if let unknown = entry.unknown {
                since = "unknown: \(safe(unknown))"
            } else if !entry.live {
                since = "stale: nobody answers (a stopped host left it; safe to delete)"
            } else if let started = entry.startedAt {
                since = "\(timeFormat.clock(started)) (up \(TimeFormat.duration(ms: now - started)))"
            } else {
                since = "live, but it did not greet (busy or not an inspector agent)"
            }
            rows.append([
                safe(entry.hostName ?? entry.name), "\(entry.pid)", entry.hostVersion.map(safe) ?? "-", entry.inspection.map(safe) ?? "-", since,
                safe(entry.socket),
            ])
        }
        var widths = [Int](repeating: 0, count: rows[0].count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            row.enumerated().map { index, cell in index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
