import BridgeCore
import Testing

/// The documented events (gbgbridge-facts.md "Messages"; docs/bridge-protocol.md section 5;
/// Two-Way Communication, "Outgoing events").
@Suite struct DocumentedEventTests {
    @Test func listsTheDocumentedEventsWithTheirSenders() {
        #expect(DocumentedEvent.all.filter { $0.sender == .host }.map(\.name)
            == ["host.ready", "host.ping", "host.background", "host.foreground", "host.orientation"])
        #expect(DocumentedEvent.all.filter { $0.sender == .journey }.map(\.name) == ["journey.cancel"])
    }

    @Test func readyCarriesTimestampAndVersionAsTheHostSendsIt() {
        #expect(DocumentedEvent.named("host.ready")?.dataFields == ["timestamp", "version"])
        #expect(DocumentedEvent.named("host.orientation")?.dataFields == ["orientation"])
        #expect(DocumentedEvent.named("journey.cancel")?.dataFields == ["reason"])
        #expect(DocumentedEvent.named("host.unknown") == nil)
    }
}
