import BridgeCore
import Foundation
import TestSupport
import Testing

@testable import JourneyWebSocket

/// The reports an inspector's page script sends over the page's bridge WebSocket
/// (`host --serve --inspect-via public-api`), with a stand-in for the script; the real one runs
/// in Chromium in EndToEndTests/ServedPublicAPITests.
@Suite("Page reports over the bridge WebSocket", .serialized)
@MainActor
struct PageReportChannelTests {
    /// Report bodies the channel handed over, in order.
    @MainActor
    final class Reports {
        var bodies: [String] = []
    }

    let sandbox: Sandbox
    let host: BridgeHost
    let log = NoticeLog()
    let reports = Reports()

    static let tapScript = "/* stand-in tap */ window.tapRan = true;"
    static let bridgeBootstrap = "window.GBGBridge = { receive: function () {} };"

    init() throws {
        sandbox = try Sandbox()
        host = BridgeHost(hostVersion: "9.9.9")
    }

    func start(reporting: Bool = true, maximumReportBytes: Int = 1024) async throws -> WebJourneyServer {
        let log = log
        let reports = reports
        let channel = PageReportChannel(script: Self.tapScript, handlerName: "gbgBridgeInspector", maximumReportBytes: maximumReportBytes) { body in
            reports.bodies.append(body)
        }
        return try await WebJourneyServer.start(
            host: host,
            configuration: WebJourneyConfiguration(
                servedDirectory: sandbox.served, bootstrapScript: Self.bridgeBootstrap, pageReports: reporting ? channel : nil)
        ) { notice in log.notices.append(notice) }
    }

    static func report(_ body: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: ["kind": "report", "text": body]), as: UTF8.self)
    }

    @Test("the bootstrap defines the report handler and runs the page script after the bridge bootstrap, only when asked")
    func scriptOnlyWhenAsked() async throws {
        let plain = try await start(reporting: false)
        let without = try await http(port: plain.port, getRequest(WebJourneyPaths.bootstrapScript, port: plain.port, token: plain.token.value))
        #expect(without.status == 200)
        #expect(without.body.contains(Self.bridgeBootstrap))
        #expect(!without.body.contains(Self.tapScript))
        #expect(!without.body.contains("gbgBridgeInspector"))
        #expect(!without.body.contains(#"kind: "report""#))
        await plain.stop()

        let server = try await start()
        let page = try await http(port: server.port, getRequest("/", port: server.port, token: server.token.value))
        #expect(page.body.contains(BootstrapInjection.element), "the page loads the bootstrap, which carries the script")
        let script = try await http(port: server.port, getRequest(WebJourneyPaths.bootstrapScript, port: server.port, token: server.token.value))
        let handlerAt = try #require(script.body.range(of: #"REPORT_HANDLER = "gbgBridgeInspector""#))
        let bridgeAt = try #require(script.body.range(of: Self.bridgeBootstrap))
        let tapAt = try #require(script.body.range(of: Self.tapScript))
        #expect(handlerAt.lowerBound < bridgeAt.lowerBound, "the handler exists before any page script runs")
        #expect(bridgeAt.upperBound <= tapAt.lowerBound, "the page script runs after the bridge bootstrap")
        #expect(script.body.hasSuffix(Self.tapScript + "\n}\n"), "inside the top-level-frame block")
        await server.stop()
    }

    @Test("a report frame reaches the callback as posted; the bridge channel is untouched")
    func reportReachesCallback() async throws {
        let server = try await start()
        let page = try await TestPage.connect(port: server.port, origin: "http://127.0.0.1:\(server.port)", token: server.token.value)
        #expect(await eventually { log.attached.count == 1 })
        let body = #"{"kind":"sent","json":"{\"x\":\"é\\u2028\"}"}"#
        try await page.send(try Self.report(body))
        try await page.post(#"{"version":"1.0","type":"request","correlationId":"r-1","timestamp":1,"payload":{"action":"capability.query"}}"#)
        #expect(await eventually { reports.bodies == [body] })
        #expect(await eventually { host.receivedMessages.count == 1 }, "posts still reach the host")
        #expect(server.pageReportCounts == PageReportCounts(delivered: 1))
        #expect(host.receivedMessages.first?.payload.action == "capability.query")
        #expect(log.protocolErrors.isEmpty)
        await page.close()
        await server.stop()
    }

    @Test("oversized, too-large and malformed reports are counted and dropped; the page stays attached and later reports arrive")
    func hostileReports() async throws {
        let server = try await start(maximumReportBytes: 64)
        let page = try await TestPage.connect(port: server.port, origin: "http://127.0.0.1:\(server.port)", token: server.token.value)
        #expect(await eventually { log.attached.count == 1 })
        try await page.send(try Self.report(String(repeating: "A", count: 65)))
        try await page.send(#"{"kind":"reportTooLarge","bytes":99999999}"#)
        try await page.send(#"{"kind":"report","text":5}"#)
        try await page.send(#"{"kind":"report"}"#)
        try await page.send(#"{"kind":"report","text":"ok"}"#)
        #expect(await eventually { reports.bodies == ["ok"] })
        #expect(server.pageReportCounts == PageReportCounts(delivered: 1, oversized: 2, malformed: 2))
        #expect(host.isJourneyAttached)
        #expect(!page.isClosed)
        await page.close()
        await server.stop()
    }

    @Test("a report from a superseded page never reaches the callback; the newer page's does")
    func supersededPage() async throws {
        let server = try await start()
        let origin = "http://127.0.0.1:\(server.port)"
        let first = try await TestPage.connect(port: server.port, origin: origin, token: server.token.value)
        #expect(await eventually { log.attached.count == 1 })
        let second = try await TestPage.connect(port: server.port, origin: origin, token: server.token.value)
        #expect(await eventually { log.attached.count == 2 })
        // The old page may still be sending: its report is dropped either by the coordinator
        // (counted) or by its closing socket.
        try? await first.send(try Self.report("old page"))
        try await second.send(try Self.report("new page"))
        #expect(await eventually { reports.bodies.contains("new page") })
        // Once the old page's connection has ended, all it sent has been handled.
        #expect(await eventually { !server.connectedPages.contains { $0.id == 1 } })
        #expect(reports.bodies == ["new page"])
        #expect(server.pageReportCounts.delivered == 1)
        #expect(server.pageReportCounts.notFromJourneyPage <= 1)
        await first.close()
        await second.close()
        await server.stop()
    }

    @Test("without a report channel a report frame is an unknown kind, as before")
    func withoutChannel() async throws {
        let server = try await start(reporting: false)
        let page = try await TestPage.connect(port: server.port, origin: "http://127.0.0.1:\(server.port)", token: server.token.value)
        #expect(await eventually { log.attached.count == 1 })
        try await page.send(try Self.report("x"))
        #expect(await eventually { log.protocolErrors.count == 1 })
        #expect(reports.bodies.isEmpty)
        #expect(server.pageReportCounts == PageReportCounts())
        await page.close()
        await server.stop()
    }
}
