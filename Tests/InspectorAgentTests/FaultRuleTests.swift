import BridgeCore
import Foundation
import InspectorAgent
import TestSupport
import Testing

/// Fault rules through the agent over a real socket: who owns them, who sees them and their hit
/// counts, what a sequence and a seeded probability do to a handled action, the limits, and
/// that nothing stays faulted when an inspector goes away.
@MainActor
@Suite("Fault rules")
struct FaultRuleTests {
    /// A fixture whose `device.info` handler answers at once, counting its runs.
    func fixture() throws -> (Fixture, HandlerCount) {
        let count = HandlerCount()
        let fixture = try Fixture { host in
            host.registerCustomCapability("device.info", version: "1.0") { _, responder in
                count.value += 1
                responder.respond(status: .success, data: ["model": "Simulator"], error: nil)
            }
        }
        return (fixture, count)
    }

    @MainActor final class HandlerCount { var value = 0 }

    static let busyTwiceThenPass =
        #"{"filter":"action:device.info","firing":{"kind":"sequence","steps":[{"kind":"error","code":"BUSY"},{"kind":"error","code":"BUSY"},{"kind":"pass"}]}}"#

    @Test("BUSY, BUSY, then the handler answers: each faulted message is marked and counted for every inspector")
    func sequenceBusyTwice() async throws {
        let (fixture, handler) = try fixture()
        defer { fixture.stop() }
        let (owner, _, _) = try await fixture.client()
        let (other, _, _) = try await fixture.client()
        let (added, reply) = try await owner.command("c1", "addFault", args: Self.busyTwiceThenPass)
        #expect(reply.ok == true, "\(reply)")
        #expect(reply.json["result"]?["id"]?.stringValue == "f1")
        let listed = try #require(added.first { $0.eventType == "faults" })
        #expect(listed.json["event"]?["faults"]?[0]?["owner"]?.stringValue == "raw-test-client")
        _ = try await other.next { $0.eventType == "faults" }

        for id in ["r1", "r2", "r3"] { fixture.receive(messageText(action: "device.info", id: id)) }
        #expect(await eventually { fixture.delivered.count == 3 })
        #expect(handler.value == 1)
        #expect(fixture.delivered.map { $0.payload.error?.code } == ["BUSY", "BUSY", nil])
        #expect(fixture.delivered.map { $0.payload.error?.recoverable } == [true, true, nil])
        // The other inspector sees the marks on the requests and the hit count.
        let marked = try await other.next {
            $0.eventType == "traffic" && $0.record?["message"]?["correlationId"]?.stringValue == "r2"
                && $0.record?["direction"]?.stringValue == "received"
        }.match
        #expect(marked.record?["fault"]?["rule"]?.stringValue == "f1")
        #expect(marked.record?["fault"]?["effect"]?.stringValue == "errored")
        #expect(marked.record?["fault"]?["detail"]?.stringValue == "BUSY")
        // The hit count, as an inspector attaching now sees it.
        let (_, _, snapshot) = try await fixture.client()
        #expect(snapshot?.json["state"]?["faults"]?[0]?["hits"]?.int == 2)
        #expect(snapshot?.json["state"]?["faults"]?[0]?["id"]?.stringValue == "f1")
    }

    @Test("Only the owner removes a rule; its rules go when it leaves, and the host handles as before")
    func ownershipAndLeaving() async throws {
        let (fixture, handler) = try fixture()
        defer { fixture.stop() }
        let (owner, _, _) = try await fixture.client()
        let (other, _, _) = try await fixture.client()
        let rule = #"{"filter":"action:device.info","effect":{"kind":"drop"}}"#
        #expect(try await owner.command("c1", "addFault", args: rule).reply.ok == true)
        let (_, refused) = try await other.command("c2", "removeFault", args: #"{"id":"f1"}"#)
        #expect(refused.errorCode == "not_owner")
        #expect(refused.errorMessage?.contains("belongs to 'raw-test-client'") == true)
        fixture.receive(messageText(action: "device.info", id: "r1"))
        await settleMain()
        #expect(handler.value == 0)
        #expect(fixture.delivered.isEmpty)
        #expect(fixture.host.pendingRequests.isEmpty)

        owner.close()
        let emptied = try await other.next { $0.eventType == "faults" && $0.json["event"]?["faults"]?.arrayValue?.isEmpty == true }
        #expect(emptied.match.eventType == "faults")
        fixture.receive(messageText(action: "device.info", id: "r2"))
        #expect(await eventually { fixture.delivered.map(\.correlationId) == ["r2"] })
        #expect(handler.value == 1)
        let (_, unknown) = try await other.command("c3", "removeFault", args: #"{"id":"f1"}"#)
        #expect(unknown.errorCode == "not_found")
    }

    @Test("A seeded probability hits the same requests on every run, and another seed differs")
    func seededProbabilityRepeats() async throws {
        func hits(seed: Int) async throws -> [Bool] {
            let (fixture, _) = try fixture()
            defer { fixture.stop() }
            let (client, _, _) = try await fixture.client()
            let rule = #"{"filter":"action:device.info","effect":{"kind":"error","code":"TIMEOUT"},"firing":{"kind":"probability","p":0.5,"seed":\#(seed)}}"#
            #expect(try await client.command("c1", "addFault", args: rule).reply.ok == true)
            for index in 0..<16 { fixture.receive(messageText(action: "device.info", id: "r\(index)")) }
            #expect(await eventually { fixture.delivered.count == 16 })
            return fixture.delivered.map { $0.payload.error?.code == "TIMEOUT" }
        }
        let first = try await hits(seed: 7)
        let again = try await hits(seed: 7)
        let other = try await hits(seed: 8)
        #expect(first == again)
        #expect(first != other)
        #expect(first.contains(true) && first.contains(false))
    }

    @Test("Bad rules are refused with what is wrong; the per-inspector limit holds")
    func refusals() async throws {
        var limits = Fixture.limits()
        limits.maxFaultsPerClient = 1
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        let undocumented = #"{"filter":"action:x","effect":{"kind":"error","code":"CAMERA_ON_FIRE"}}"#
        let (_, noRecoverable) = try await client.command("c1", "addFault", args: undocumented)
        #expect(noRecoverable.errorCode == "invalid_arguments")
        #expect(noRecoverable.errorMessage?.contains("give recoverable") == true)
        let (_, badFilter) = try await client.command("c2", "addFault", args: #"{"filter":"is:fault","effect":{"kind":"drop"}}"#)
        #expect(badFilter.errorCode == "invalid_arguments")
        #expect(badFilter.errorMessage?.contains("is:fault never applies") == true)
        let (_, badDelay) = try await client.command("c3", "addFault", args: #"{"filter":"","effect":{"kind":"delay","minMs":3000,"maxMs":1000}}"#)
        #expect(badDelay.errorMessage?.contains("smaller end first") == true)
        let (_, noEffect) = try await client.command("c4", "addFault", args: #"{"filter":""}"#)
        #expect(noEffect.errorMessage?.contains("say what the rule does") == true)
        let own = #"{"filter":"action:x","effect":{"kind":"error","code":"CAMERA_ON_FIRE","recoverable":false}}"#
        #expect(try await client.command("c5", "addFault", args: own).reply.ok == true)
        let (_, tooMany) = try await client.command("c6", "addFault", args: #"{"filter":"","effect":{"kind":"drop"}}"#)
        #expect(tooMany.errorCode == "too_many_faults")
    }

    @Test("What an inspector sends itself is never faulted")
    func inspectorMessagesNotFaulted() async throws {
        let (fixture, _) = try fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        #expect(try await client.command("c1", "addFault", args: #"{"filter":"dir:out","effect":{"kind":"drop"}}"#).reply.ok == true)
        #expect(try await client.command("c2", "sendEvent", args: #"{"name":"host.ping"}"#).reply.ok == true)
        #expect(fixture.delivered.map(\.payload.action) == ["host.ping"])
        fixture.host.send(event: "host.ready")
        #expect(fixture.delivered.count == 1)
    }

    @Test("A snapshot lists every inspector's rules with their hit counts")
    func snapshotListsRules() async throws {
        let (fixture, _) = try fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        #expect(try await client.command("c1", "addFault", args: #"{"filter":"dir:out","effect":{"kind":"duplicate"},"firing":{"kind":"times","count":1}}"#).reply.ok == true)
        fixture.host.send(event: "host.ready")
        #expect(fixture.delivered.count == 2)
        let (_, _, snapshot) = try await fixture.client()
        let listed = snapshot?.json["state"]?["faults"]?[0]
        #expect(listed?["id"]?.stringValue == "f1")
        #expect(listed?["hits"]?.int == 1)
        #expect(listed?["rule"]?["effect"]?["kind"]?.stringValue == "duplicate")
    }
}

/// Lets main-actor work already scheduled run, for checks that something did not happen.
@MainActor
private func settleMain() async {
    for _ in 0..<50 { await Task.yield() }
}
