import BridgeCore
import Foundation
@testable import GBGBridgeInspector
import InspectorProtocol
import TestSupport
import Testing

/// What the app's main thread reads of a page report now (`DocumentedDeliveryReader.head`, one
/// validating pass that builds nothing) must say "readable" exactly when the whole reading
/// (`SentDeliveryDecoder.decode`) reads the report as BridgeCore's message JSON as it stands, and
/// name the same correlation id, type and action; every other report still goes the whole way.
/// So the adapter's verdict (``PublicAPIHost/unreadReports``, ``PublicAPIHost/sentReports``, the
/// last unread report) is today's on every input.
// Not on the main actor as a suite: its long pure loops would hold the main actor for seconds on
// a busy machine, starving every other test that needs it. Only the adapter's test is.
@Suite("A sent report's head, read on the main thread, agrees with the whole reading")
struct SentReportHeadTests {
    /// The head read from `bytes` as the adapter reads it (from a string's bytes as they lie).
    static func head(_ bytes: Data, maxDepth: Int = 100) -> BridgeMessageReader.Head? {
        bytes.withUnsafeBytes { DocumentedDeliveryReader.head(in: $0, maxDepth: maxDepth) }
    }

    /// Why the head disagrees with the whole reading of `bytes`, or `nil`.
    static func difference(_ bytes: Data, maxDepth: Int = 100) -> String? {
        let head = Self.head(bytes, maxDepth: maxDepth)
        let documented = DocumentedDeliveryReader.message(in: bytes, maxDepth: maxDepth)
        let whole = SentDeliveryDecoder.decode(bytes, maxDepth: maxDepth, actionOfRequest: { _ in "seen.action" })
        let text = String(decoding: bytes.prefix(200), as: UTF8.self)
        guard let head else {
            return documented == nil ? nil : "head refused what the one-pass reader took: \(text)"
        }
        guard let message = documented, case .success(let delivery) = whole, delivery.reported == nil, delivery.message == message else {
            return "head read what the whole reading does not take as it stands: \(text)"
        }
        let read = BridgeMessageReader.Head(correlationId: message.correlationId, type: message.type, action: message.payload.action)
        return head == read ? nil : "head \(head) differs from the message's \(read): \(text)"
    }

    @Test("documented, other and hostile shapes, at every nesting bound")
    func shapes() {
        var taken = 0
        let deep = "{\"a\":" + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "}"
        for text in DocumentedDeliveryReaderTests.documented + DocumentedDeliveryReaderTests.others + [deep] {
            for depth in [1, 2, 3, 4, 100] {
                #expect(Self.difference(Data(text.utf8), maxDepth: depth) == nil)
            }
            if Self.head(Data(text.utf8)) != nil { taken += 1 }
        }
        #expect(taken == DocumentedDeliveryReaderTests.documented.count)
    }

    @Test("reports with random damage: bytes changed, cut, doubled or dropped", arguments: [7, 8, 2026] as [UInt64])
    func randomDamage(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let alphabet = Array(#"{}[]":,\ 0123456789.eE+-truefalsnul"statuserrorpayloadactiondata\u00"#.utf8) + [0, 0x80, 0xC3, 0xA9, 0xFF, 0x0A]
        let sources = DocumentedDeliveryReaderTests.documented + DocumentedDeliveryReaderTests.others
        var taken = 0
        var differences: [String] = []
        for _ in 0..<3000 {
            var bytes = Array(sources[Int(random.next() % UInt64(sources.count))].utf8)
            DocumentedDeliveryReaderTests.damage(&bytes, alphabet: alphabet, random: &random)
            if let difference = Self.difference(Data(bytes)) { differences.append(difference) }
            if Self.head(Data(bytes)) != nil { taken += 1 }
        }
        #expect(differences.prefix(5) == [])
        // Damage that leaves a message readable, and damage that does not.
        #expect(taken > 10 && taken < 2900)
    }

    @Test("the JSONTestSuite corpus as payload data, as another field's value and as whole reports",
        .enabled(if: JSONTestSuiteCorpus.shouldRun(), Comment(rawValue: JSONTestSuiteCorpus.skipText)))
    func corpus() throws {
        let names = JSONTestSuiteCorpus.fileNames()
        #expect(names.count > 300, "the corpus is not at \(JSONTestSuiteCorpus.location.path)")
        var differences: [String] = []
        var taken = 0
        for name in names {
            let bytes = try Data(contentsOf: JSONTestSuiteCorpus.location.appendingPathComponent(name))
            let head = Data(#"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data":"#.utf8)
            for input in [
                head + Data(#"{"v":"#.utf8) + bytes + Data("}}}".utf8), head + bytes + Data("}}".utf8),
                Data(#"{"version":"1.0","correlationId":"c","type":"response","timestamp":1,"extra":"#.utf8) + bytes + Data(#","payload":{"action":"x"}}"#.utf8),
                bytes,
            ] {
                if let difference = Self.difference(input) { differences.append("\(name): \(difference)") }
                if Self.head(input) != nil { taken += 1 }
            }
        }
        #expect(differences.prefix(5) == [])
        #expect(taken > 100)
    }

    @Test("the adapter counts, shows and keeps reports as readable or unread exactly as the whole reading says")
    @MainActor
    func adapterVerdict() async throws {
        let host = BridgeHost(hostVersion: "2.0.0")
        let adapter = PublicAPIHost(api: host, hostVersion: "2.0.0")
        var random = SplitMix64(seed: 30)
        let sources = DocumentedDeliveryReaderTests.documented + DocumentedDeliveryReaderTests.others
        var readable = 0
        var unread = 0
        var lastUnread: Data?
        for round in 0..<1500 {
            // Other tests need the main actor too.
            if round % 50 == 49 { await Task.yield() }
            var bytes = Array(sources[Int(random.next() % UInt64(sources.count))].utf8)
            if round % 2 == 1, !bytes.isEmpty {
                let at = Int(random.next() % UInt64(bytes.count))
                bytes.remove(at: at)
            }
            // What the page script hands over is a string: invalid UTF-8 is repaired on the way.
            let text = String(decoding: bytes, as: UTF8.self)
            let data = Data(text.utf8)
            switch SentDeliveryDecoder.decode(data, actionOfRequest: { _ in nil }) {
            case .success: readable += 1
            case .failure:
                unread += 1
                lastUnread = data
            }
            adapter.reportSent(json: text)
            #expect(adapter.sentReports == readable, "round \(round): \(text)")
            #expect(adapter.unreadReports == unread, "round \(round): \(text)")
            #expect(adapter.lastUnreadReport?.raw == lastUnread.map { $0.prefix(64 * 1024) }, "round \(round)")
        }
        #expect(readable > 100 && unread > 100)
    }
}
