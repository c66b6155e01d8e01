import ArgumentParser
import Foundation
import InspectorAgent
import InspectorClient

/// `bridge-inspector host`'s options, parsed and checked by swift-argument-parser as an option
/// group (`@OptionGroup var options: HostOptions`), and then what `HostRunner` runs from: one
/// declaration per option, so a new option is one property here.
struct HostOptions: ParsableArguments, Sendable {
    @Option(name: .customLong("profile"), help: ArgumentHelp("The host profile to use (JSON). Default: with --serve DIR or --webkit DIR, DIR/host-profile.json when there is one; else the built-in demo profile.", valueName: "file"), completion: Completions.jsonFile)
    var profilePath: String?

    @Option(name: .customLong("scenario"), help: ArgumentHelp("The journey scenario to run (JSON). Default: the built-in demo scenario.", valueName: "file"), completion: Completions.jsonFile)
    var scenarioPath: String?

    @Option(name: .long, help: ArgumentHelp(
        "The host name inspectors show; the socket file is named after it. Default: the profile's name.", valueName: "name"))
    var name: String?

    @Option(name: .customLong("socket"), help: ArgumentHelp(
        "Serve the inspector on this socket path. Default: $BRIDGE_INSPECTOR_SOCKET when set, else <name>.<pid>.sock in the per-user directory ($BRIDGE_INSPECTOR_SOCKET_DIR; else on macOS /tmp/bridge-inspector-<uid>; on Linux $XDG_RUNTIME_DIR/bridge-inspector or /tmp/bridge-inspector-<uid>).",
        valueName: "path"), completion: Completions.anyFile)
    var socketPath: String?

    @Option(name: .customLong("journey-log"), help: ArgumentHelp(
        "Write everything the journey sends, receives and gives up on to this file, one JSON object per line.", valueName: "file"), completion: Completions.anyFile)
    var journeyLogPath: String?

    @Flag(name: .customLong("exit-when-done"), help: "Exit when the scenario ends (it must not loop). Without it the host keeps running until stopped.")
    var exitWhenDone = false

    @Flag(name: .customLong("wait-for-inspector"), help: ArgumentHelp(
        "Start the journey only once an inspector (the TUI, tail, record, ...) follows the host, so it sees every message from the first. Like node --inspect-brk."))
    var waitForInspector = false

    @Flag(name: .customLong("exit-on-stdin-eof"), help: ArgumentHelp("Exit when standard input is closed (used by `demo` for its child host).", visibility: .hidden))
    var exitOnStdinEOF = false

    @Option(name: .customLong("serve"), help: ArgumentHelp(
        "Serve the web journey in this directory to a browser on 127.0.0.1, with the bridge bootstrap injected into its pages, instead of simulating a journey.",
        valueName: "dir"), completion: .directory)
    var serveDirectory: String?

    @Option(name: .customLong("webkit"), help: ArgumentHelp(
        "Run the web journey in a real WebKit web view (WebKitGTK on Linux) instead of simulating it: a journey directory (its index.html), an HTML file, or an http(s) URL. Needs the WebKit runner; see docs/web-journeys.md.",
        valueName: "journey"), completion: .directory)
    var webKitJourney: String?

    @Flag(name: .long, help: ArgumentHelp(
        "With --webkit: put the web view on a virtual display (Xvfb) instead of in a window. Default: when $DISPLAY is not set."))
    var headless = false

    @Option(name: .long, help: ArgumentHelp("The port for --serve or --allow-origin on 127.0.0.1; 0 picks a free one. Default: 0.", valueName: "port"))
    var port: Int?

    @Option(name: .customLong("allow-origin"), help: ArgumentHelp(
        "Also let pages of this origin (scheme://host[:port], such as a dev server's http://localhost:5173) connect to the bridge. Repeatable.",
        valueName: "origin"))
    var allowedOrigins: [String] = []

    @Option(name: .customLong("inspect-via"), help: ArgumentHelp(
        "How the inspector sees the host: native (everything BridgeCore knows) or public-api (only GBGBridge's public API and the page script, as an app embedding GBG's GBGBridge is seen; see docs/real-apps.md). Default: native.",
        valueName: "path"))
    var inspectionPath: InspectionPath = .native

    @Option(name: .customLong("listen-tcp"), help: ArgumentHelp(
        "Also serve the inspector on this TCP port of 127.0.0.1 (0: a free one), as an app on a phone does for `iproxy`; clients need the token logged on standard error. [ADDRESS:]PORT binds another address (loopback only, unless --allow-non-loopback).",
        valueName: "[address:]port"))
    var listenTCP: String?

    @Flag(name: .customLong("allow-non-loopback"), help: ArgumentHelp(
        "Let --listen-tcp bind an address other than loopback. Anyone on the network who learns the token can then drive the host."))
    var allowNonLoopback = false

    @Option(name: .customLong("recording"), help: ArgumentHelp(
        "Answer the journey from this recorded session (made with `record`) instead of a profile: each request gets the answer the recorded app gave (matched by action and data, in order), the recorded host events come at the same points, and what the recording cannot answer waits in pendingRequests. See docs/web-journeys.md.",
        valueName: "file"), completion: Completions.anyFile)
    var recordingPath: String?

    @Option(name: .customLong("match-ignore"), help: ArgumentHelp(
        "With --recording: a field of the request's data that may differ from the recorded request's, such as data.nonce or data.items.*.addedAt (a timestamp, a generated id). Repeatable.",
        valueName: "path"))
    var matchIgnore: [String] = []

    @Flag(name: .customLong("recorded-pacing"), help: ArgumentHelp(
        "With --recording: answer each request after the recorded latency, as slowly as the recorded app did, instead of at once."))
    var recordedPacing = false

    func validate() throws {
        if let listenTCP {
            guard Self.parseListenTCP(listenTCP) != nil else {
                throw ValidationError("--listen-tcp takes PORT (0 to 65535) or ADDRESS:PORT, such as 9123 or 127.0.0.1:9123; got \(listenTCP.debugDescription)")
            }
        } else if allowNonLoopback {
            throw ValidationError("--allow-non-loopback only goes with --listen-tcp ADDRESS:PORT")
        }
        if recordingPath != nil, profilePath != nil {
            throw ValidationError(
                "--recording and --profile cannot be used together: with --recording the host answers from the recording, and what it cannot answer waits in pendingRequests for you or a reply rule (bridge-inspector respond, auto-respond)")
        }
        if recordingPath == nil, !matchIgnore.isEmpty || recordedPacing {
            throw ValidationError("--match-ignore and --recorded-pacing go with --recording FILE")
        }
        for path in matchIgnore where RecordedDataPath(path) == nil {
            throw ValidationError("--match-ignore takes a field of the request's data, such as data.nonce or data.items.*.addedAt; got \(path.debugDescription)")
        }
        if webKitJourney != nil, servesWebJourney {
            throw ValidationError("--webkit and --serve/--allow-origin cannot be used together: --webkit opens the journey in a WebKit web view of its own, --serve serves it to a browser")
        }
        if headless, webKitJourney == nil {
            throw ValidationError("--headless goes with --webkit JOURNEY (a browser opened for --serve is yours to run headless)")
        }
        let real = webKitJourney != nil ? "--webkit" : "--serve/--allow-origin"
        if runsRealJourney, scenarioPath != nil {
            throw ValidationError("--scenario and \(real) cannot be used together: --scenario simulates the web journey, \(real) runs a real one")
        }
        if runsRealJourney, exitWhenDone {
            throw ValidationError("--exit-when-done needs a scenario that ends; a real journey has no end, so stop the host with Ctrl-C")
        }
        if runsRealJourney, journeyLogPath != nil {
            throw ValidationError("--journey-log records the simulated journey; with \(real), watch the traffic in the inspector")
        }
        if servesWebJourney, waitForInspector {
            throw ValidationError("--wait-for-inspector holds back a simulated journey; with --serve the page is the journey: attach the inspector first, then open the page")
        }
        if webKitJourney != nil, waitForInspector {
            throw ValidationError("--wait-for-inspector holds back a simulated journey; with --webkit the page loads at once: attach the inspector, then reload the page")
        }
        if let port {
            guard servesWebJourney else { throw ValidationError("--port is for --serve or --allow-origin") }
            guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 (a free port) or 1 to 65535, not \(port)") }
        }
    }

    /// The name of the host profile a served journey may keep beside its pages, used when
    /// `--serve DIR` is given without `--profile`.
    static let servedProfileName = "host-profile.json"

    /// `DIR/host-profile.json` when `--serve DIR` is given without `--profile` and that file
    /// exists: a journey directory carries the host it was written for, so serving it alone
    /// gives that host (its name, its slots) rather than the demo's.
    static func profileBesideJourney(serveDirectory: String?, profilePath: String?) -> String? {
        guard profilePath == nil, let serveDirectory else { return nil }
        let candidate = (serveDirectory as NSString).appendingPathComponent(servedProfileName)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return candidate
    }

    /// `PORT` (on 127.0.0.1), `ADDRESS:PORT` or `[IPv6]:PORT`; nil when it is none of these.
    static func parseListenTCP(_ value: String) -> (address: String, port: Int)? {
        if let port = Int(value) { return (0...65_535).contains(port) ? ("127.0.0.1", port) : nil }
        guard let colon = value.lastIndex(of: ":"), let port = Int(value[value.index(after: colon)...]),
            (0...65_535).contains(port)
        else { return nil }
        var address = String(value[..<colon])
        if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        return address.isEmpty ? nil : (address, port)
    }

    /// The agent's TCP options for `--listen-tcp`, logging to standard error; nil without it.
    var inspectorTCPOptions: InspectorTCPOptions? {
        listenTCP.flatMap(Self.parseListenTCP).map { listen in
            InspectorTCPOptions(
                port: listen.port, address: listen.address, allowNonLoopback: allowNonLoopback,
                log: { StandardStreams.printError($0) })
        }
    }

    /// The `--match-ignore` paths, read (``validate()`` refused any that is not one).
    var ignoredPaths: [RecordedDataPath] { matchIgnore.compactMap(RecordedDataPath.init) }

    /// Whether a browser journey replaces the simulated one (`--serve` or `--allow-origin`).
    var servesWebJourney: Bool { serveDirectory != nil || !allowedOrigins.isEmpty }

    /// Whether a real journey (in a browser or in WebKit) replaces the simulated one.
    var runsRealJourney: Bool { servesWebJourney || webKitJourney != nil }

    /// The journey directory whose `host-profile.json` is the default profile: `--serve DIR`, or `--webkit DIR`.
    var journeyDirectory: String? {
        if let serveDirectory { return serveDirectory }
        guard let webKitJourney else { return nil }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: webKitJourney, isDirectory: &isDirectory) && isDirectory.boolValue ? webKitJourney : nil
    }
}
