import BridgeCore
import Foundation

/// How a journey runs in WebKit: which page, which bootstrap, and whether the web view has a
/// window of its own.
///
/// ```swift
/// var configuration = try WebKitJourneyConfiguration(journey: "examples/web-journey")
/// configuration.headless = true
/// let journey = try await WebKitJourney.start(host: host, configuration: configuration) { notice in print(notice) }
/// ```
public struct WebKitJourneyConfiguration: Sendable {
    /// The address the web view loads first (`file://`, `http://` or `https://`).
    public var uri: String
    /// The host's bootstrap script, injected at document start in the top frame only before any of
    /// the page's scripts, on every page load. Default: GBGBridge's documented one.
    public var bootstrapScript: String = BridgeConfiguration.defaultBootstrapScript
    /// Scripts injected after the bootstrap, in order, the same way (the GBGBridge adapter's page script).
    public var userScripts: [String] = []
    /// Script message handlers besides `gbgBridge` (the page script's report channel), with what
    /// receives their posts, on the main actor.
    public var reportHandlers: [String: @MainActor @Sendable (String) -> Void] = [:]
    /// Run the web view on a virtual display of its own (Xvfb) instead of in a window.
    public var headless = false
    /// The runner's path; default: found by ``WebKitRunnerLocator``.
    public var runnerPath: String?
    /// How long the runner may take to open its web view.
    public var startTimeout: Duration = .seconds(120)
    /// The most bytes of deliveries queued for the runner before a delivery fails (the page stopped evaluating).
    public var maximumPendingBytes = 64 * 1024 * 1024

    /// A configuration for `uri`.
    public init(uri: String) {
        self.uri = uri
    }

    /// A configuration for `journey`: a directory (its `index.html`), an HTML file, or an
    /// `http`, `https` or `file` URL. Throws when it is none of these.
    public init(journey: String) throws {
        self.init(uri: try Self.address(of: journey))
    }

    /// The address of `journey` (see ``init(journey:)``).
    public static func address(of journey: String) throws -> String {
        let lowered = journey.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("file://") {
            guard URL(string: journey) != nil else { throw WebKitJourneyError.invalidJourney("\(journey) is not a valid URL") }
            return journey
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: journey, isDirectory: &isDirectory) else {
            throw WebKitJourneyError.invalidJourney(
                "\(journey): no such directory or file; give a journey directory (with an index.html), an HTML file, or an http(s) URL")
        }
        var file = URL(fileURLWithPath: journey).standardizedFileURL
        if isDirectory.boolValue {
            file.appendPathComponent("index.html")
            guard FileManager.default.isReadableFile(atPath: file.path) else {
                throw WebKitJourneyError.invalidJourney("\(journey) has no readable index.html; give the journey's HTML file instead")
            }
        }
        return file.absoluteString
    }
}
