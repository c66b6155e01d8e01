import BridgeCore
import GBGBridgeInspector
import InspectorAgent

/// The journey `bridge-inspector host` runs: a simulated one that a scenario drives
/// (``SimulatedHostJourney``), real pages in a browser over a WebSocket (``WebHostJourney``), or
/// real pages in a WebKit web view (``WebKitHostJourney``).
///
/// ``HostRunner`` starts and stops either through the same steps, in this order: ``prepare(host:)``
/// (what must work before the inspector's socket appears), serve the inspector,
/// ``connect(host:to:)``, announce, ``start(host:agent:finished:)``, wait for a reason to stop,
/// ``stop()``, stop the inspector, ``close()``. Only what differs between the two lives in the conforming types.
@MainActor
protocol HostJourney: AnyObject {
    /// What the host is doing, as it follows "is" in the start-up line:
    /// `running the journey scenario "demo"`.
    var activity: String { get }

    /// Starts what must be checked before anything is visible from outside (a web server's
    /// directory, origins and port). Throws an error whose description tells the person what to do.
    func prepare(host: BridgeHost) async throws

    /// Connects the journey to the host and to the inspector now serving it. Throws an error whose
    /// description tells the person what to do; the inspector is then stopped.
    func connect(host: BridgeHost, to served: inout ServedInspector) throws

    /// Lines for standard output after the socket's (the journey's address, say).
    var outputLines: [String] { get }

    /// Lines for standard error after the start-up line: those before the attach hint and those after it.
    var notices: (beforeAttachHint: [String], afterAttachHint: [String]) { get }

    /// What the host does when a journey (a page) attaches: by default it sends the documented
    /// `host.ready`; `host --recording` sends the recorded one instead (``RecordedHost``).
    var journeyAttached: @MainActor (BridgeHost) -> Void { get set }

    /// Starts the journey; `finished` is called if it ends by itself.
    func start(host: BridgeHost, agent: InspectorAgent, finished: @escaping @Sendable () -> Void)

    /// The journey ended by itself: whether the host stops now (after ``HostRunner/drain``).
    func finished() -> Bool

    /// Ends the journey (no more traffic), before the inspector stops.
    func stop() async

    /// Closes what the journey keeps open until the inspector has stopped (the journey log).
    func close()

    /// The journey's page, where the GBGBridge adapter's `inject` and `replay` post as the journey
    /// would (`--inspect-via public-api`); `nil` for a simulated journey, which the native path serves.
    var journeyPage: (any JourneyPage)? { get }

    /// Reloads the journey's page (the inspector's `journey reload`) and says what was done, or
    /// throws why it cannot. Nothing the host holds is cleared; the page that loads again gets
    /// `host.ready` through ``journeyAttached``.
    func reloadPage() throws(JourneyControlRefusal) -> String

    /// Why the journey could not run (a web view that could not be opened): the host then exits
    /// with status 1 once it has stopped. `nil` when nothing failed.
    var failure: String? { get }
}

extension HostJourney {
    func close() {}
    var failure: String? { nil }
    var journeyPage: (any JourneyPage)? { nil }
}

/// A reason the host cannot start that is not another module's error: a sentence saying what to do.
struct HostStartError: Error, CustomStringConvertible {
    /// What is wrong and what would be right.
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
