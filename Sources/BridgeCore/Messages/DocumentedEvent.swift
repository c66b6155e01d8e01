/// The events GBGBridge's documentation names, who sends each and the data it carries: the one
/// list that the inspector's contract checks, its journey coverage and its lifecycle steps read.
///
/// Events are fire-and-forget (FAQ, "What happens to events — does anyone respond to them?").
/// A host or journey may send events of its own too; these are the ones the pages name
/// (docs/bridge-protocol.md, section 5).
///
/// ```swift
/// DocumentedEvent.named("host.orientation")?.dataFields   // ["orientation"]
/// DocumentedEvent.all.filter { $0.sender == .host }.map(\.name)
/// // ["host.ready", "host.ping", "host.background", "host.foreground", "host.orientation"]
/// ```
public struct DocumentedEvent: Sendable, Hashable {
    /// Which side sends the event.
    public enum Sender: String, Sendable, Hashable, CaseIterable {
        /// The native host, through `send(event:data:)`.
        case host
        /// The web journey, through its `gbgBridge` message handler.
        case journey
    }

    /// The event's action, such as `host.ready`.
    public var name: String
    /// Who sends it.
    public var sender: Sender
    /// The members of `payload.data` the documentation shows for it (none for a bare event). The
    /// pages show them in examples; whether each is required is the contract's call.
    public var dataFields: [String]
    /// Where the documentation names it.
    public var source: String

    /// Creates an entry.
    public init(name: String, sender: Sender, dataFields: [String], source: String) {
        self.name = name
        self.sender = sender
        self.dataFields = dataFields
        self.source = source
    }

    /// Every documented event, host events first, in the order the documentation lists them.
    public static let all: [DocumentedEvent] = [
        DocumentedEvent(
            name: "host.ready", sender: .host, dataFields: ["timestamp", "version"],
            source: "Two-Way Communication, \"Outgoing events (native → web)\""),
        DocumentedEvent(
            name: "host.ping", sender: .host, dataFields: ["timestamp"],
            source: "Two-Way Communication (sendPingEvent); the web SDK's event list"),
        DocumentedEvent(name: "host.background", sender: .host, dataFields: [], source: "the web SDK's event list"),
        DocumentedEvent(name: "host.foreground", sender: .host, dataFields: [], source: "the web SDK's event list"),
        DocumentedEvent(name: "host.orientation", sender: .host, dataFields: ["orientation"], source: "the web SDK's event list"),
        DocumentedEvent(name: "journey.cancel", sender: .journey, dataFields: ["reason"], source: "the web SDK's event list"),
    ]

    /// The documented event called `name`, if there is one.
    public static func named(_ name: String) -> DocumentedEvent? {
        all.first { $0.name == name }
    }
}
