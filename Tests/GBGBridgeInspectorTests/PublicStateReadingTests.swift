import BridgeCore
import Foundation
@testable import GBGBridgeInspector
import InspectorProtocol
import TestSupport
import Testing

/// The adapter reads GBGBridge's public state in one call into the reading it keeps
/// (`readPublicState(into:)`, each slot's `readSlot(into:)`, which write only what changed and
/// say whether anything did) instead of one property at a time, compares an active request's id
/// before the whole message, and keeps the requests that left `pendingRequests` as positions in
/// the list seen instead of an array: each must give exactly what the path it replaced gave.
// Only the tests that drive a host run on the main actor, and those yield it now and then: a long
// loop holding it would starve every other test that needs it on a busy machine.
@Suite("The public state read at once, against the properties read one by one")
struct PublicStateReadingTests {
    /// `readPublicState()` as the adapter read it before: each property on its own, the slots'
    /// through the slot type's own members.
    @MainActor
    static func oneByOne(_ host: BridgeHost) -> PublicStateReading {
        func slot(_ capture: CaptureCapability) -> CaptureSlotReading {
            CaptureSlotReading(
                hasHandler: capture.hasHandler, isEnabled: capture.isEnabled, isSupported: capture.isSupported,
                permissionState: capture.permissionState, activeRequest: capture.activeRequest)
        }
        return PublicStateReading(
            delegateObject: host.delegateObject, lastError: host.lastError, pendingRequests: host.pendingRequests,
            document: slot(host.documentCapture), selfie: slot(host.selfieCapture))
    }

    static func expectSame(_ read: PublicStateReading, _ reference: PublicStateReading, _ context: String) {
        #expect(read.delegateObject === reference.delegateObject, "\(context)")
        #expect(read.lastError == reference.lastError, "\(context)")
        #expect(read.pendingRequests == reference.pendingRequests, "\(context)")
        #expect(read.document == reference.document, "\(context)")
        #expect(read.selfie == reference.selfie, "\(context)")
    }

    static func message(_ id: String, action: String, side: String) -> BridgeMessage {
        BridgeMessage(
            version: "1.0", correlationId: id, type: .request, timestamp: 1_732_240_000_000,
            payload: .init(action: action, data: ["side": .string(side)]))
    }

    @Test("BridgeHost: every field of every slot, pending requests, lastError and the delegate changed at random (3 seeds × 600 steps)",
        arguments: [3, 17, 2024] as [UInt64])
    @MainActor
    func bridgeHostReadsAsOneByOne(seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        // Kept from read to read, as the adapter keeps it; a fresh one is read each step too.
        var kept = PublicStateReading()
        var slotChanges = 0
        let host = BridgeHost(hostVersion: "1.0.0")
        let delegates = [MessageLogger(host: host, answerUnhandled: false), MessageLogger(host: host, answerUnhandled: false)]
        let plain = PlainAPI(host)
        var plainKept = PublicStateReading()
        var next = 0
        for step in 0..<600 {
            if step % 25 == 24 { await Task.yield() }
            let slot = Bool.random(using: &random) ? host.documentCapture : host.selfieCapture
            switch Int.random(in: 0..<9, using: &random) {
            case 0:
                if Bool.random(using: &random) {
                    slot.handler = nil
                } else {
                    slot.handler = { @MainActor @Sendable _ in .cancelled(reason: "test") }
                }
            case 1: slot.isEnabled.toggle()
            case 2: slot.permissionState = PermissionState.allCases.randomElement(using: &random) ?? .granted
            case 3:
                // Another request, the same id with other data, or none.
                let side = Bool.random(using: &random) ? "front" : "back"
                slot.activeRequest =
                    Int.random(in: 0..<3, using: &random) == 0 ? nil : Self.message("a\(Int.random(in: 0..<3, using: &random))", action: slot.action, side: side)
            case 4, 5:
                next += 1
                host.receive(text: request("custom.action", id: "p\(next)"))
            case 6:
                if let first = host.pendingRequests.randomElement(using: &random) {
                    host.respond(to: first.correlationId, status: .success, data: nil, error: nil)
                }
            case 7: host.receive(text: "{not json \(step)")
            default: host.delegate = Bool.random(using: &random) ? delegates[step % 2] : nil
            }
            let before = kept
            host.readPublicState(into: &kept)
            let reference = Self.oneByOne(host)
            Self.expectSame(kept, reference, "seed \(seed), step \(step)")
            #expect(kept.documentChanged == (before.document != reference.document), "seed \(seed), step \(step)")
            #expect(kept.selfieChanged == (before.selfie != reference.selfie), "seed \(seed), step \(step)")
            if kept.documentChanged || kept.selfieChanged { slotChanges += 1 }
            var fresh = PublicStateReading()
            host.readPublicState(into: &fresh)
            Self.expectSame(fresh, reference, "seed \(seed), step \(step), fresh")
            // A conformance that implements neither read gets the protocols' defaults: the same.
            let plainBefore = plainKept
            plain.readPublicState(into: &plainKept)
            Self.expectSame(plainKept, reference, "seed \(seed), step \(step), default")
            #expect(plainKept.documentChanged == (plainBefore.document != reference.document), "seed \(seed), step \(step), default")
            #expect(plainKept.selfieChanged == (plainBefore.selfie != reference.selfie), "seed \(seed), step \(step), default")
            plainKept.letGoOfHostObjects()
            // Let go of after each comparison, as the adapter does: the next read is the same.
            kept.letGoOfHostObjects()
            #expect(kept.pendingRequests.isEmpty && kept.delegateObject == nil)
        }
        #expect(next > 0, "requests were pending at some point")
        #expect(slotChanges > 100, "the slots changed on many steps")
        withExtendedLifetime(delegates) {}
    }

    @Test("a comparison asked for while the app's code reads the public state does not start: no overlap with the reading lent, no recursion")
    @MainActor
    func comparisonFromInsideTheReadDoesNotStart() {
        let host = BridgeHost(hostVersion: "1.0.0")
        let plain = PlainAPI(host)
        let adapter = PublicAPIHost(api: plain, hostVersion: "1.0.0")
        var reads = 0
        plain.documentCapture.onRead = { [weak adapter] in
            reads += 1
            adapter?.refresh()
        }
        host.receive(text: request("custom.action", id: "p1"))
        adapter.refresh()
        #expect(reads == 1, "the comparison asked for from inside the read returned at once")
        plain.documentCapture.onRead = nil
        #expect(adapter.inspectionSnapshot().pendingRequests.map(\.message.correlationId) == ["p1"])
    }

    /// Messages that differ in one field at a time (the id among them, and ids equal only as
    /// Unicode text), so that only a whole comparison tells most apart.
    static let requests: [BridgeMessage?] = {
        let base = message("c1", action: "camera.document.capture", side: "front")
        var otherData = base
        otherData.payload.data = ["side": .string("back")]
        var noData = base
        noData.payload.data = nil
        var otherTime = base
        otherTime.timestamp += 1
        var otherVersion = base
        otherVersion.version = "1.1"
        var otherAction = base
        otherAction.payload.action = "camera.selfie.capture"
        var otherId = base
        otherId.correlationId = "c2"
        var composed = base
        composed.correlationId = "\u{E9}1"
        var decomposed = base
        decomposed.correlationId = "e\u{301}1"
        var long = base
        long.correlationId = String(repeating: "long-id-", count: 8)
        var longAgain = base
        longAgain.correlationId = String(repeating: "long-id-", count: 4) + String(repeating: "long-id-", count: 4)
        return [nil, base, otherData, noData, otherTime, otherVersion, otherAction, otherId, composed, decomposed, long, longAgain]
    }()

    @Test("an active request compared by id first, then whole: always ==, for every pair of requests")
    func sameRequestIsEquality() {
        var equalPairs = 0
        for seen in Self.requests {
            for now in Self.requests {
                #expect(CaptureSlotReading.sameRequest(seen, now) == (seen == now), "\(String(describing: seen)) / \(String(describing: now))")
                if seen == now { equalPairs += 1 }
            }
        }
        // Each with itself, and the Unicode-equal ids and the equal long ids with each other.
        #expect(equalPairs == Self.requests.count + 4)
    }

    @Test("many requests leaving and joining at once, ids twice, reorders: what sets give, applied in place (5 seeds × 1,500 looks)")
    func manyAtOnce() {
        for seed in UInt64(31)...35 {
            var random = SeededRandom(seed: seed)
            var list: [String] = []
            var seen: [(id: String, action: String)] = []
            var since: [Date] = []
            var seenIsUnique = true
            var next = 0
            var manyLeft = 0
            for look in 0..<1_500 {
                let before = list
                let leaving = Int.random(in: 0...9, using: &random)
                for _ in 0..<leaving where !list.isEmpty {
                    list.remove(at: Int.random(in: 0..<list.count, using: &random))
                }
                for _ in 0..<Int.random(in: 0...9, using: &random) {
                    next += 1
                    list.append("r\(next)")
                }
                switch Int.random(in: 0..<12, using: &random) {
                case 0 where !list.isEmpty: list.append(list[Int.random(in: 0..<list.count, using: &random)])
                case 1 where list.count > 1: list.swapAt(Int.random(in: 0..<list.count, using: &random), list.count - 1)
                case 2 where !before.isEmpty: list.append(before[Int.random(in: 0..<before.count, using: &random)])
                case 3: list.insert("r\(next + 1)", at: 0)
                default: break
                }
                if list.count > 45 { list.removeFirst(list.count - 45) }
                let now = list.map(PendingChangeTests.request)
                let expected = PendingChangeTests.reference(from: seen, to: now)
                let change = PendingChange(from: seen, to: now, beforeIsUnique: seenIsUnique)
                let removed = change.removed(from: seen)
                #expect(removed.map(\.id) == expected.removed, "seed \(seed), look \(look)")
                #expect(removed.map(\.action) == expected.removed.map { "action-\($0)" }, "seed \(seed), look \(look)")
                #expect(change.removedCount == expected.removed.count, "seed \(seed), look \(look)")
                #expect(change.added.map(\.correlationId) == expected.added, "seed \(seed), look \(look)")
                if expected.removed.count > FewPositions.inline { manyLeft += 1 }
                if !change.isEmpty {
                    // What making the lists again from `now` gives: ids, actions, and the first
                    // time each id was seen.
                    var firstSeen: [String: Date] = [:]
                    for (request, time) in zip(seen, since) where firstSeen[request.id] == nil { firstSeen[request.id] = time }
                    let time = Date(timeIntervalSince1970: Double(look))
                    change.apply(to: &seen, since: &since, after: now, time: time)
                    seenIsUnique = change.afterIsUnique
                    #expect(seen.map(\.id) == list, "seed \(seed), look \(look)")
                    #expect(seen.map(\.action) == list.map { "action-\($0)" }, "seed \(seed), look \(look)")
                    #expect(since == list.map { firstSeen[$0] ?? time }, "seed \(seed), look \(look)")
                }
                if seenIsUnique { #expect(Set(seen.map(\.id)).count == seen.count, "seed \(seed), look \(look)") }
            }
            #expect(manyLeft > 10, "more than four left at once on some looks (seed \(seed))")
        }
    }

    @Test("positions beyond the four held inline are kept, in order both ways")
    func fewPositionsSpill() {
        for count in 0...11 {
            var positions = FewPositions()
            for position in 0..<count { positions.append(position * 3) }
            var forward: [Int] = []
            positions.forEach { forward.append($0) }
            var backward: [Int] = []
            positions.forEachFromLast { backward.append($0) }
            #expect(positions.count == count)
            #expect(forward == (0..<count).map { $0 * 3 })
            #expect(backward == forward.reversed())
            #expect(positions.allSatisfy { $0 % 3 == 0 })
            #expect(positions.allSatisfy { $0 < 3 * (count - 1) } == (count == 0), "the last one fails")
        }
    }
}

/// A conformance with only the documented properties, as an app's own mirror might be written:
/// it gets `readPublicState(into:)` and `readSlot(into:)` from the protocols' defaults.
@MainActor
private final class PlainAPI: GBGBridgeHostAPI {
    let host: BridgeHost
    let documentCapture: PlainSlot
    let selfieCapture: PlainSlot

    init(_ host: BridgeHost) {
        self.host = host
        documentCapture = PlainSlot(host.documentCapture)
        selfieCapture = PlainSlot(host.selfieCapture)
    }

    var lastError: String? { host.lastError }
    var receivedMessages: [BridgeMessage] { host.receivedMessages }
    var pendingRequests: [BridgeMessage] { host.pendingRequests }
    var delegateObject: AnyObject? { host.delegateObject }
    func respond(to correlationId: String, status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?) {
        host.respond(to: correlationId, status: status, data: data, error: error)
    }
    func send(event: String, data: [String: JSONValue]?) { host.send(event: event, data: data) }
    func installDelegateProxy(reportingTo tap: any GBGBridgeDelegateTap, forwardingTo appDelegate: AnyObject?) -> AnyObject {
        host.installDelegateProxy(reportingTo: tap, forwardingTo: appDelegate)
    }
    func restoreDelegate(_ appDelegate: AnyObject?) { host.restoreDelegate(appDelegate) }
}

@MainActor
private final class PlainSlot: GBGBridgeCaptureAPI {
    let slot: CaptureCapability

    init(_ slot: CaptureCapability) { self.slot = slot }

    /// Runs whenever the adapter reads `hasHandler`: where an app's mirror could call back.
    var onRead: (() -> Void)?

    var hasHandler: Bool {
        onRead?()
        return slot.hasHandler
    }
    var isEnabled: Bool {
        get { slot.isEnabled }
        set { slot.isEnabled = newValue }
    }
    var permissionState: PermissionState {
        get { slot.permissionState }
        set { slot.permissionState = newValue }
    }
    var isSupported: Bool { slot.isSupported }
    var activeRequest: BridgeMessage? { slot.activeRequest }
    func complete(_ result: CaptureResult) -> Bool { slot.complete(result) }
    func refusal(toComplete result: CaptureResult) -> String? { slot.refusal(toComplete: result) }
}
