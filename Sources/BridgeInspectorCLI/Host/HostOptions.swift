import Foundation
import InspectorAgent

/// What `bridge-inspector host` was asked to do, as plain values.
struct HostOptions: Sendable {
    /// `--profile`, or `nil` for the built-in demo profile.
    var profilePath: String?
    /// `--scenario`, or `nil` for the built-in demo scenario.
    var scenarioPath: String?
    /// `--name`, or `nil` for the profile's name.
    var name: String?
    /// `--socket`, or `nil` for the default location.
    var socketPath: String?
    /// `--journey-log`, or `nil` for none.
    var journeyLogPath: String?
    /// `--exit-when-done`.
    var exitWhenDone: Bool
    /// `--exit-on-stdin-eof`.
    var exitOnStdinEOF: Bool
    /// Start the journey only once an inspector follows the host.
    var waitForInspector = false
    /// `--serve`: the directory of a real web journey to serve to a browser, or `nil`.
    var serveDirectory: String? = nil
    /// `--port`: the port for the web journey (0 picks a free one), or `nil` for 0.
    var port: Int? = nil
    /// `--inspect-via`: how the agent sees the host.
    var inspectionPath: InspectionPath = .native
    /// `--allow-origin`: origins besides the served one whose pages may connect to the bridge.
    var allowedOrigins: [String] = []

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

    /// `--listen-tcp`: the address and port to serve the inspector on over TCP, or `nil`.
    var listenTCP: (address: String, port: Int)? = nil
    /// `--allow-non-loopback`.
    var allowNonLoopback = false

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
        listenTCP.map { listen in
            InspectorTCPOptions(
                port: listen.port, address: listen.address, allowNonLoopback: allowNonLoopback,
                log: { StandardStreams.printError($0) })
        }
    }

    /// Whether a browser journey replaces the simulated one (`--serve` or `--allow-origin`).
    var servesWebJourney: Bool { serveDirectory != nil || !allowedOrigins.isEmpty }
}
