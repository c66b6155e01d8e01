import AgentTesting
import BridgeCore
import Foundation
import GBGBridgeInspector
import InspectorAgent
import InspectorProtocol
import TestSupport
import Testing

/// `inject` and `replay` on a host seen through GBGBridge's public API: the message is posted in
/// the journey's page as the journey would (`JourneyPage`), so GBGBridge receives it through its
/// own script message handler. The page here posts to the host on a later turn, as WebKit does.
@MainActor
@Suite("GBGBridge adapter: inject through the journey's page")
struct JourneyPageInjectTests {
    /// A page whose `gbgBridge.postMessage` reaches `host` later, as WebKit hands posts over.
    final class FakePage: JourneyPage {
        weak var host: BridgeHost?
        var unavailableReason: String?
        private(set) var posts: [JourneyPost] = []
        /// A page busy elsewhere: posts wait here until ``deliverWaiting()``.
        var holdsPosts = false
        private var waiting: [JourneyPost] = []

        func post(asJourney post: JourneyPost) {
            posts.append(post)
            guard !holdsPosts else { return waiting.append(post) }
            let host = host
            Task { @MainActor in host?.receive(text: post.text) }
        }

        /// Hands the waiting posts to the host, as a page that was busy finally does.
        func deliverWaiting() {
            for post in waiting { host?.receive(text: post.text) }
            waiting.removeAll()
        }

        func send(_ command: PageInterceptCommand) {}
    }

    @Test("with a page, inject is offered; the message reaches GBGBridge through the page and is the command's in the log")
    func injectsThroughThePage() async throws {
        let page = FakePage()
        let app = try AppUnderTest(journeyPage: page)
        page.host = app.host
        defer { app.stop() }
        let session = try await app.subscribedSession()
        defer { session.close() }
        #expect(session.hello.host.unsupportedReason(.inject) == nil)
        #expect(session.hello.host.unsupportedReason(.intercept) != nil)

        let message = BridgeMessage(correlationId: "inspector-1", type: .request, payload: .init(action: "device.info"))
        let reply = try await session.run(.inject(.init(message: message)))
        guard case .success = reply.result else { Issue.record("inject failed: \(reply.result)"); return }
        #expect(page.posts.count == 1)
        #expect(page.posts.first?.isObject == true)
        #expect(app.host.receivedMessages.contains { $0.correlationId == "inspector-1" })
        // The injected request, as the log shows it, is marked as this inspector's.
        let traffic = try await session.next {
            if case .event(_, .traffic(let record)) = $0 { return record.message.correlationId == "inspector-1" && record.direction == .received }
            return false
        }
        guard case .event(_, .traffic(let record)) = traffic else { return }
        #expect(record.origin == .inspector, "the injected message is marked as made by the inspector")
        #expect(record.command != nil, "and with the command that made it")
    }

    @Test("a page slower than settleTimeout: the reply comes when the time passes on the clock, and the message that arrives later is still the inspector's")
    func slowPageKeepsTheOrigin() async throws {
        let page = FakePage()
        page.holdsPosts = true
        let app = try AppUnderTest(journeyPage: page)
        page.host = app.host
        defer { app.stop() }
        let session = try await app.subscribedSession()
        defer { session.close() }

        let message = BridgeMessage(correlationId: "inspector-slow", type: .request, payload: .init(action: "device.info"))
        let id = try session.send(.inject(.init(message: message)))
        // The poll loop and the reply's settling timer sleep on the clock.
        #expect(await app.clock.waitForSleepers(count: 2))
        app.clock.advance(by: app.adapter.settleTimeout)
        let reply = try await session.reply(to: id)
        guard case .success = reply.result else { Issue.record("inject failed: \(reply.result)"); return }
        #expect(page.posts.count == 1 && !app.host.receivedMessages.contains { $0.correlationId == "inspector-slow" }, "the page has not delivered it yet")

        page.deliverWaiting()
        let traffic = try await session.next {
            if case .event(_, .traffic(let record)) = $0 { return record.message.correlationId == "inspector-slow" && record.direction == .received }
            return false
        }
        guard case .event(_, .traffic(let record)) = traffic else { return }
        #expect(record.origin == .inspector, "an injection the page was slow to deliver is not the journey's")
    }

    @Test("without a page the host says it cannot inject; with a page not loaded, inject is refused with the page's reason")
    func refusals() async throws {
        let bare = try AppUnderTest()
        defer { bare.stop() }
        let plain = try await bare.session(subscribe: false)
        defer { plain.close() }
        let reason = try #require(plain.hello.host.unsupportedReason(.inject))
        #expect(reason.contains("JourneyPage"))

        let page = FakePage()
        page.unavailableReason = "no page has loaded yet"
        let app = try AppUnderTest(journeyPage: page)
        defer { app.stop() }
        let session = try await app.session(subscribe: false)
        defer { session.close() }
        let reply = try await session.run(.inject(.init(raw: "{}")))
        guard case .failure(let error) = reply.result else { Issue.record("inject was not refused"); return }
        #expect(error.message == "no page has loaded yet")
        #expect(page.posts.isEmpty)
    }

    @Test("a post is the message as an object when it is a JSON object, else the text as a string, escaped for a script")
    func postScripts() {
        let object = JourneyPost(bytes: Data(#" {"type":"event","payload":{"action":"a</script>\u2028"}}"#.utf8))
        #expect(object.isObject)
        #expect(object.script.hasPrefix("window.webkit.messageHandlers.gbgBridge.postMessage( {\"type\""), "leading white space is kept; still an object")
        #expect(object.script.hasSuffix("); void 0;"))
        #expect(!object.script.contains("</script>"))
        let text = JourneyPost(bytes: Data(#"{"version":"1.0","type":"request""#.utf8))
        #expect(!text.isObject)
        #expect(text.script == #"window.webkit.messageHandlers.gbgBridge.postMessage("{\"version\":\"1.0\",\"type\":\"request\""); void 0;"#)
        #expect(!JourneyPost(bytes: Data("[1,2]".utf8)).isObject)
    }

    @Test("the post scripts run in node post exactly the object or the string", .enabled(if: nodePath != nil, "node is not installed (apt-get install nodejs): this test cannot run here"))
    func postScriptsRunInNode() throws {
        let node = try #require(nodePath)
        let cases = [#"{"a":"<\/script> \u2028 é","n":[1,2.5,null,true]}"#, #"not json at all " ' \ </script>"#]
        for text in cases {
            let post = JourneyPost(bytes: Data(text.utf8))
            let program = """
                var posted = [];
                var window = { webkit: { messageHandlers: { gbgBridge: { postMessage: function (m) { posted.push(m); return Promise.resolve(); } } } } };
                var result = eval(\(String(decoding: try JSONEncoder().encode(post.script), as: UTF8.self)));
                process.stdout.write(JSON.stringify({ result: result === undefined ? "undefined" : typeof result, posted: posted }));
                """
            let run = try SpawnedProcess.run([node, "-e", program], timeout: 120)
            #expect(run.status == 0, "\(run.errors)")
            let output = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            #expect(output["result"] as? String == "undefined")
            let posted = try #require(output["posted"] as? [Any])
            #expect(posted.count == 1)
            if post.isObject {
                let expected = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
                #expect((posted.first as? NSDictionary) == expected)
            } else {
                #expect(posted.first as? String == text)
            }
        }
    }
}

/// node, where installed.
let nodePath: String? = ["/usr/bin/node", "/usr/local/bin/node", "/usr/bin/nodejs"].first { FileManager.default.isExecutableFile(atPath: $0) }
