import BridgeCore
import Foundation
import TestSupport
import Testing

/// `receivedMessages` kept in a ring buffer (issue 30, item 3) shows what the array trimmed with
/// `removeFirst` showed: on random sessions of messages (malformed ones too), new caps and
/// clears, after every step it is the newest `maxReceivedMessages` decoded messages, oldest first.
@Suite("receivedMessages log")
@MainActor
struct ReceivedMessagesLogTests {
    @Test("A session of messages, new caps and clears shows what the old rule showed, after every step")
    func followsTheOldRule() {
        let capacities = [-1, 0, 1, 2, 3, 7, 20, 200, Int.max]
        for seed in UInt64(1)...12 {
            var random = SeededRandom(seed: seed)
            let (host, _) = makeHost()
            host.registerCustomCapability("device.info") { _, responder in responder.respond(status: .success) }
            var expected: [String] = []
            var cap = host.maxReceivedMessages
            for step in 0..<400 {
                let roll = Int.random(in: 0..<100, using: &random)
                if roll < 55 {
                    let id = "e-\(seed)-\(step)"
                    host.receive(text: message(type: .event, action: "journey.step", id: id))
                    expected.append(id)
                } else if roll < 75 {
                    // Answered at once, unanswered (pending), or a duplicate of one still pending:
                    // each is logged before it is routed.
                    let action = ["device.info", "nobody.handles", "nobody.handles"][Int.random(in: 0..<3, using: &random)]
                    let id = Int.random(in: 0..<4, using: &random) == 0 ? "dup-\(seed)" : "r-\(seed)-\(step)"
                    host.receive(text: request(action, id: id))
                    expected.append(id)
                } else if roll < 85 {
                    // Not decoded: never logged.
                    host.receive(text: #"{"version":"1.0","correlationId":"bad-\#(step)","type":"request""#)
                } else if roll < 97 {
                    let newCap = capacities[Int.random(in: 0..<capacities.count, using: &random)]
                    host.maxReceivedMessages = newCap
                    cap = max(0, newCap)
                } else {
                    host.clearReceivedMessages()
                    expected.removeAll()
                }
                let excess = expected.count - cap
                if excess > 0 { expected.removeFirst(excess) }
                #expect(host.receivedMessages.map(\.correlationId) == expected, "seed \(seed), step \(step)")
                #expect(host.maxReceivedMessages == cap)
            }
        }
    }

    @Test("Far past the default cap, it holds the newest 200, oldest first, and raising the cap keeps them")
    func pastTheDefaultCap() {
        let (host, _) = makeHost()
        for index in 0..<1234 { host.receive(text: message(type: .event, action: "journey.tick", id: "e-\(index)")) }
        #expect(host.receivedMessages.map(\.correlationId) == (1034..<1234).map { "e-\($0)" })
        host.maxReceivedMessages = 300
        #expect(host.receivedMessages.count == 200)
        for index in 1234..<1334 { host.receive(text: message(type: .event, action: "journey.tick", id: "e-\(index)")) }
        #expect(host.receivedMessages.map(\.correlationId) == (1034..<1334).map { "e-\($0)" })
        host.receive(text: message(type: .event, action: "journey.tick", id: "e-1334"))
        #expect(host.receivedMessages.first?.correlationId == "e-1035")
        #expect(host.receivedMessages.count == 300)
    }
}
