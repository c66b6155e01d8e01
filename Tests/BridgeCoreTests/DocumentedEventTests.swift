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

    /// `named` compares lengths before names: it finds what comparing every name finds, for the
    /// names, near misses, other lengths, and spellings `String` holds equal to an ASCII text
    /// (combining marks, the Kelvin sign, the Greek question mark and varia).
    @Test func namedFindsWhatComparingEveryNameFinds() {
        var candidates = ["", "host", "host.", "host.ready ", "HOST.READY", "host.readY", "journey.step", "host.pinG", "host.ping\u{0}"]
        for event in DocumentedEvent.all {
            let name = event.name
            candidates += [name, String(name.dropLast()), name + "s", "\u{212A}" + name, name + "\u{301}", String(name.map { $0 == "." ? "\u{37E}" : $0 })]
            candidates.append(String(name.reversed()))
        }
        candidates += ["host.\u{212A}eady", "h\u{301}ost.ready", "host;ready", "host\u{37E}ready", "host`ready", "host\u{1FEF}ready"]
        for candidate in candidates {
            let expected = DocumentedEvent.all.first { $0.name == candidate }
            #expect(DocumentedEvent.named(candidate) == expected, "\(candidate.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        // What makes comparing lengths first safe: no name holds a character with another
        // canonically equivalent spelling in Unicode.
        let singletons: Set<Unicode.Scalar> = ["K", ";", "`"]
        for event in DocumentedEvent.all {
            #expect(event.name.unicodeScalars.allSatisfy { $0.isASCII && !singletons.contains($0) }, "\(event.name)")
        }
    }
}
