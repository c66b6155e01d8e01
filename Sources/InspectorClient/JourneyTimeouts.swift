import BridgeCore
import InspectorProtocol

/// How long a journey waits for an answer before it gives up on a request: the web SDK's
/// defaults, `discoverCapabilities()` 5,000 ms and `request()` 30,000 ms (GBGBridge web SDK, as
/// recorded in docs/bridge-protocol.md, "Defaults"). The host never enforces them: a request the
/// journey gave up on stays in `pendingRequests` until someone answers it, and an answer then
/// reaches no one. Such a request is *abandoned*.
///
/// This is the one place the notion lives: `wait-for` and reply rules skip abandoned requests by
/// default (`--include-abandoned` keeps them), and other checks reuse ``isAbandoned(_:hostNow:)``.
///
/// ```swift
/// let timeouts = JourneyTimeouts.webSDK
/// if timeouts.isAbandoned(request, hostNow: clock.hostNow(localNow: nowMs)) { /* skip it */ }
/// ```
public struct JourneyTimeouts: Sendable, Hashable {
    /// The web SDK's `discoverCapabilities()` timeout: 5,000 ms.
    public static let capabilityQueryMs = 5_000.0
    /// The web SDK's `request()` timeout: 30,000 ms.
    public static let requestMs = 30_000.0

    /// The journey's timeout for every request, when it is not the web SDK's default (a journey
    /// can pass its own to `request()`; the capture example uses 120,000 ms); `nil` for the defaults.
    public var overrideMs: Double?

    /// The web SDK's defaults.
    public static let webSDK = JourneyTimeouts()

    /// Timeouts: the web SDK's defaults, or `overrideMs` for every request.
    public init(overrideMs: Double? = nil) {
        self.overrideMs = overrideMs
    }

    /// How long the journey waits for a request with `action`, in milliseconds.
    public func timeoutMs(forAction action: String) -> Double {
        if let overrideMs { return overrideMs }
        return action == CapabilityQueryHandler.action ? Self.capabilityQueryMs : Self.requestMs
    }

    /// Whether the journey has given up on `request`: it has waited longer than its timeout.
    /// `hostNow` is the host's clock now (``HostClock``), because `since` is on the host's clock.
    public func isAbandoned(_ request: WirePending, hostNow: Double) -> Bool {
        hostNow - request.since > timeoutMs(forAction: request.action)
    }
}

/// The host's clock as this inspector reads it: `WirePending.since` and traffic times are stamped
/// by the host, and a host reached over TCP (a phone) may have a clock that differs from this
/// machine's by seconds or more.
///
/// The estimate uses what the host stamps as it happens: a `pendingAdded` event is sent the
/// moment the request arrives, so its `since` is the host's "now" when the event arrives here
/// (late by the delivery, which only makes ages look shorter, never longer). Until such an event
/// has arrived, the host's clock is taken to be this machine's: right for a host on the same
/// machine (a Unix socket), the usual case.
public struct HostClock: Sendable, Hashable {
    /// The host's clock minus this machine's, in milliseconds, from the newest live event.
    public private(set) var offsetMs = 0.0

    /// A clock that assumes the host's clock is this machine's.
    public init() {}

    /// Learns from a live event: the host stamped `hostTime` just before this machine saw it at `localTime`.
    public mutating func observe(hostTime: Double, at localTime: Double) {
        guard hostTime.isFinite, localTime.isFinite else { return }
        offsetMs = hostTime - localTime
    }

    /// Learns from a live frame, if it is an event the host stamped as it happened.
    public mutating func observe(_ frame: AgentFrame, at localTime: Double) {
        switch frame {
        case .event(_, .pendingAdded(let request)): observe(hostTime: request.since, at: localTime)
        default: break
        }
    }

    /// The host's clock when this machine's reads `localNow` (both in milliseconds since 1970).
    public func hostNow(localNow: Double) -> Double { localNow + offsetMs }
}
