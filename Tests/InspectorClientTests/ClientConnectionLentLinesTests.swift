import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// A session's machine does not keep lines: it decodes each where the framer lends it, with no
/// array per line (issue 30). For the same bytes, cut anywhere, it must answer with the same
/// actions and hand out the same frames, in the same order, as the machine that keeps lines, and
/// fail the same way; only the lines themselves are left out.
@Suite("The machine that does not keep lines: the same actions, frames and errors as the one that does")
struct ClientConnectionLentLinesTests {
    private static let hostJSON = #"{"environment":"ios","hostVersion":"1.0","name":"lent-host","pid":7,"startedAt":1000}"#
    private static let helloLine =
        #"{"kind":"hello","protocol":1,"agent":"a","host":\#(hostJSON),"features":[],"limits":{"maxFrameBytes":10,"maxClients":1}}"#
    private static let endpoint = InspectorEndpoint.unixSocket(path: "/tmp/lent.sock")

    /// An action as one comparable line.
    private static func summary(_ action: ClientConnectionStateMachine.Action) -> String {
        switch action {
        case .read: return "read"
        case .sendHello(let hello): return "sendHello \(hello.host.name) \(hello.protocol)"
        case .deliverFrames: return "deliverFrames"
        case .close(let error): return "close \(error)"
        }
    }

    /// A frame as one comparable text: described whole, with the message bytes of its records
    /// (not part of the description, which gives only their count).
    private static func summary(_ frame: AgentFrame) -> String {
        var bytes: [Data?] = []
        switch frame {
        case .event(_, .traffic(let traffic)): bytes = [traffic.messageJSON]
        case .event(_, .pendingAdded(let pending)): bytes = [pending.messageJSON]
        case .snapshot(_, let state): bytes = state.messages.map(\.messageJSON) + state.pending.map(\.messageJSON)
        default: break
        }
        let texts = bytes.map { $0.map { String(decoding: $0, as: UTF8.self) } ?? "none" }
        return "\(frame) \(texts)"
    }

    /// A traffic record, valid, sometimes with rare fields (an edited message, a fault).
    private static func record(_ text: inout HostileJSONText, seq: Int) -> String {
        let message = #"{"version":"1.0","correlationId":"c-\#(seq)","type":"event","timestamp":1,"payload":{"action":"a.\#(text.below(5))","data":{"n":\#(text.pick(["0", "-0", "7", "1.5", "1e3", "1E-2", "1.0", "9007199254740993", "12345678901234567890"]))}}}"#
        var record = #"{"seq":\#(seq),"direction":"received","time":1.5,"origin":"journey","bytes":\#(message.utf8.count),"message":\#(message)"#
        if text.chance(0.1) { record += #","fault":{"rule":"f","effect":"dropped"},"original":\#(message)"# }
        return record + "}"
    }

    /// A traffic event frame, valid.
    private static func trafficFrame(_ text: inout HostileJSONText, seq: Int) -> String {
        #"{"kind":"event","seq":\#(seq),"event":{"type":"traffic","record":\#(record(&text, seq: seq))}}"#
    }

    /// A snapshot frame holding up to three traffic records, valid.
    private static func snapshotFrame(_ text: inout HostileJSONText) -> String {
        let records = (0..<text.below(4)).map { record(&text, seq: $0 + 1) }
        return #"{"kind":"snapshot","seq":1,"state":{"host":\#(hostJSON),"journeyAttached":true,"lastError":null,"errorHistory":[],"messages":["#
            + records.joined(separator: ",")
            + #"],"malformed":[],"pending":[],"slots":[],"customCapabilities":[],"counts":{"evicted":0,"malformed":0,"received":0,"sent":0}}}"#
    }

    /// A stream an agent (or something else) might send: usually a hello first, then traffic
    /// events and snapshots (some mutated), other frames, garbage, lines ending in `\r\n`, and
    /// lines over the cap.
    private static func stream(_ text: inout HostileJSONText, cap: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        let first = text.below(10)
        bytes += Array((first == 0 ? "SSH-2.0" : first == 1 ? #"{"kind":"reply","id":null,"ok":false,"error":{"code":"too_many_clients","message":"no"}}"# : helloLine).utf8)
        bytes.append(0x0A)
        for _ in 0..<(5 + text.below(40)) {
            let line: [UInt8]
            switch text.below(40) {
            // Now and then one that may be spoiled (most of them end the connection).
            case 0: line = text.mutated(text.trafficFrame())
            case 1: line = text.mutated(Self.snapshotFrame(&text))
            case 2: line = cap < 1 << 20 ? Array(repeating: UInt8(ascii: "x"), count: cap + text.below(3)) : Array("{not json".utf8)
            case 3: line = Array(#"{"kind":"gap","from":3,"to":4}"#.utf8)
            case 4: line = Array(#"{"kind":"event","seq":2,"event":{"type":"pendingRemoved","correlationId":"r1"}}"#.utf8)
            case 5, 6: line = Array(Self.snapshotFrame(&text).utf8)
            default: line = Array(Self.trafficFrame(&text, seq: text.below(1_000)).utf8)
            }
            bytes += line
            if text.chance(0.1) { bytes.append(0x0D) }
            bytes.append(0x0A)
        }
        if text.chance(0.5) { bytes += Array(helloLine.utf8.prefix(20)) }
        return bytes
    }

    @Test("random streams cut anywhere: the same actions, frames and failures, lines left out", arguments: [31, 32, 33, 34] as [UInt64])
    func sameAsKeepingLines(seed: UInt64) {
        var text = HostileJSONText(seed: seed)
        var random = SeededRandom(seed: seed)
        var seen = (frames: 0, traffic: 0, failures: 0, greeted: 0)
        for round in 0..<60 {
            let cap = text.chance(0.3) ? 400 + text.below(800) : 1 << 20
            let bytes = Self.stream(&text, cap: cap)
            var keeping = ClientConnectionStateMachine(endpoint: Self.endpoint, maximumFrameBytes: cap)
            var lending = ClientConnectionStateMachine(endpoint: Self.endpoint, maximumFrameBytes: cap, keepsLines: false)
            var start = 0
            while start < bytes.count {
                let size = [1, 7, 300, 5_000, 100_000][Int(random.next() % 5)]
                let chunk = Array(bytes[start..<min(bytes.count, start + size)])
                start += chunk.count
                let place = "seed \(seed), round \(round), at \(start)"
                #expect(Self.summary(keeping.bytesReceived(chunk)) == Self.summary(lending.bytesReceived(chunk)), "\(place)")
                #expect(keeping.hasFrames == lending.hasFrames, "\(place)")
                // Taken now and then, so that frames also wait across reads.
                guard random.next() % 3 == 0 else { continue }
                while let kept = keeping.nextFrame() {
                    let lent = lending.nextFrame()
                    #expect(lent.map { Self.summary($0.frame) } == Self.summary(kept.frame), "\(place)")
                    #expect(lent?.line == [], "\(place)")
                    #expect(!kept.line.isEmpty, "\(place)")
                    seen.frames += 1
                    if case .event(_, .traffic) = kept.frame { seen.traffic += 1 }
                }
                #expect(lending.nextFrame() == nil, "\(place)")
            }
            let ends = (Self.summary(keeping.endOfFile()), Self.summary(lending.endOfFile()))
            #expect(ends.0 == ends.1, "seed \(seed), round \(round)")
            while let kept = keeping.nextFrame() {
                #expect(lending.nextFrame().map { Self.summary($0.frame) } == Self.summary(kept.frame))
            }
            #expect(lending.nextFrame() == nil)
            #expect(keeping.hello?.host.name == lending.hello?.host.name)
            if keeping.hello != nil { seen.greeted += 1 }
            if case .close(.closed) = keeping.endOfFile() {} else { seen.failures += 1 }
        }
        // The streams met what they are meant to: frames of both kinds, greetings, failures.
        #expect(seen.frames > 200 && seen.traffic > 150 && seen.greeted > 30 && seen.failures > 10, "\(seen)")
    }
}
