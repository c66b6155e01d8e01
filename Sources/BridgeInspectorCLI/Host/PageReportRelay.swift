import GBGBridgeInspector
import JourneyWebSocket
import TerminalUI

/// For `host --serve --inspect-via public-api`: takes the reports of the page script running in
/// the browser from the web-journey server and hands them to the public-API adapter. The server
/// starts before the inspector (so a bad directory leaves no socket behind), so the inspector is
/// set once it is serving; reports before that are counted as early.
///
/// The person running the host is told (once per kind) when the script cannot see a delivery,
/// since the inspector then misses a sent message; the report texts are the page's and are made
/// safe for the terminal.
@MainActor
final class PageReportRelay {
    /// The inspector the reports go to.
    var inspector: ServedInspector?
    private var early = 0
    private var told: Set<String> = []

    /// Handles one report body from the attached journey page.
    func received(_ body: String) {
        guard let inspector else {
            early += 1
            return
        }
        switch inspector.pageReported(body) {
        case .unreportable(let reason):
            tellOnce("unreportable", "the page script could not copy a message the host sent (\(reason)); the inspector shows it as unread, without its text.")
        case .blind(let reason):
            tellOnce("blind", "the page script cannot see what the host sends to this page (\(reason)); the inspector shows only what the page sends.")
        case .lost:
            tellOnce("lost", "a message the host sent reached GBGBridge's no-op receive: the journey had not set window.GBGBridge.receive yet, so it never got it.")
        case .sent, .page, .invalid, .intercept, nil:
            // A post that is not a report is shown in the inspector as an unread row, with why.
            break
        }
    }

    /// Says, when the host stops, how many reports were dropped and why.
    func summarize(_ counts: PageReportCounts) {
        var parts: [String] = []
        if counts.notFromJourneyPage > 0 { parts.append("\(counts.notFromJourneyPage) from a page that was no longer the journey") }
        if counts.oversized > 0 { parts.append("\(counts.oversized) too large") }
        if counts.malformed > 0 { parts.append("\(counts.malformed) not page-script reports") }
        if early > 0 { parts.append("\(early) before the inspector was serving") }
        guard !parts.isEmpty else { return }
        StandardStreams.printError("bridge-inspector host: ignored page-script reports: \(parts.joined(separator: ", ")).")
    }

    private func tellOnce(_ kind: String, _ text: String) {
        guard told.insert(kind).inserted else { return }
        StandardStreams.printError(Sanitizer.sanitize("bridge-inspector host: \(text)"))
    }
}
