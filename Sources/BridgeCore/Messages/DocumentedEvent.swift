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
    ///
    /// An inspector asks for every event entering its log (the contract check), nearly always
    /// for a name that is none of these: names are compared by their length in UTF-8 first,
    /// and only an entry of the same length is compared as a `String` (and copied out), instead
    /// of copying every entry out to compare it (issue 30). The same answer as comparing every
    /// name: a `String` equal to a name spelled otherwise would need a character canonically
    /// equivalent to one of its ASCII characters, and only the capital K, the semicolon and the
    /// grave accent (U+0060) have such a spelling (the Kelvin sign, the Greek question mark and
    /// varia), which no name contains.
    public static func named(_ name: String) -> DocumentedEvent? {
        let count = name.utf8.count
        for index in all.indices where nameLengths[index] == count && all[index].name == name { return all[index] }
        return nil
    }

    /// The length in UTF-8 of each name of ``all``, in the same order.
    private static let nameLengths: [Int] = all.map(\.name.utf8.count)
}
