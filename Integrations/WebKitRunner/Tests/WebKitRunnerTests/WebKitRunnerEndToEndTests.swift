import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The built `bridge-inspector-webkit` with a real WebKitGTK under its own Xvfb: each test spawns
/// one, speaks the protocol on its pipes, and waits (bounded) for the events it expects.
/// Serialized: every runner is a UI process, a network process and a web process.
@Suite(.serialized, .enabled(if: WebKitAvailability.shouldRun, WebKitAvailability.skipComment), .timeLimit(.minutes(10)))
struct WebKitRunnerEndToEndTests {
    /// A page that posts what it saw of the user script, from its own script in <head>.
    static let sawPage = """
        <!doctype html><html><head><meta charset="utf-8"><script>
        window.webkit.messageHandlers.gbgBridge.postMessage(document.title + " saw " + typeof window.GBGBridge
          + " " + typeof (window.GBGBridge && window.GBGBridge.receive));
        </script><title>TITLE</title></head><body>TITLE</body></html>
        """

    static func page(_ title: String) -> String {
        sawPage.replacingOccurrences(of: "TITLE", with: title)
    }

    @Test func startsThenRunsTheUserScriptBeforeThePagesScript() async throws {
        let pages = try TestPages(["index.html": Self.page("index")])
        let runner = try RunnerProcess()
        defer { runner.stop() }
        let started = try await runner.waitFor("started")
        #expect(started.index == 0)
        #expect(started.event["webkitVersion"]?.split(separator: ".").count == 3)
        #expect(started.event["display"]?.hasPrefix(":") == true)

        try runner.send(startLine(uri: pages.uri("index.html")))
        let loadStarted = try await runner.waitFor("load", ["event": "started", "uri": pages.uri("index.html")])
        let committed = try await runner.waitFor("load", ["event": "committed"], from: loadStarted.index)
        let post = try await runner.waitFor("post", ["handler": "gbgBridge"], from: committed.index)
        #expect(post.event["text"] == " saw object function")  // the title is not parsed yet
        try await runner.waitFor("load", ["event": "finished", "uri": pages.uri("index.html")], from: post.index)
    }

    @Test func postedBodiesArriveAsTextOrAsJSON() async throws {
        let pages = try TestPages(["index.html": "<!doctype html><title>posts</title>"])
        let runner = try RunnerProcess()
        defer { runner.stop() }
        try runner.send(startLine(uri: pages.uri("index.html"), extraHandlers: ["other"]))
        try await runner.waitFor("load", ["event": "finished"])

        let text = "plain \"quoted\" \\ back\nnew line é 😀 \u{2028} {\"not\":\"json\"}"
        try runner.send(commandLine(["kind": "evaluate", "seq": 1,
            "script": "window.webkit.messageHandlers.gbgBridge.postMessage(\(javaScriptString(text))); undefined"]))
        let stringPost = try await runner.waitFor("post")
        #expect(stringPost.event["text"] == text)

        try runner.send(commandLine(["kind": "evaluate", "seq": 2, "script": """
            window.webkit.messageHandlers.gbgBridge.postMessage({type: "request", payload: {action: "a", n: 1.5, list: [1, null, true], s: "x\\"y"}}); undefined
            """]))
        let objectPost = try await runner.waitFor("post", from: stringPost.index + 1)
        let posted = try JSONSerialization.jsonObject(with: Data((objectPost.event["text"] ?? "").utf8)) as? NSDictionary
        let expected: NSDictionary = ["type": "request", "payload": ["action": "a", "n": 1.5, "list": [1, NSNull(), true], "s": "x\"y"]]
        #expect(posted == expected, "posted \(objectPost.event["text"] ?? "nothing")")

        try runner.send(commandLine(["kind": "evaluate", "seq": 3,
            "script": "window.webkit.messageHandlers.other.postMessage(42); undefined"]))
        try await runner.waitFor("post", ["handler": "other", "text": "42"])
        try runner.send(commandLine(["kind": "evaluate", "seq": 4,
            "script": "window.webkit.messageHandlers.gbgBridge.postMessage(undefined); undefined"]))
        let failed = try await runner.waitFor("postFailed", ["handler": "gbgBridge"])
        #expect(failed.event["error"]?.contains("no JSON form") == true)
        try await runner.waitFor("evaluated", ["seq": "4"])
        // What WebKit does with a script whose value it cannot return (postMessage gives a Promise).
        try runner.send(commandLine(["kind": "evaluate", "seq": 5,
            "script": "window.webkit.messageHandlers.gbgBridge.postMessage('five')"]))
        try await runner.waitFor("post", ["text": "five"])
        try await runner.waitFor("evaluateFailed", ["seq": "5", "error": "Unsupported result type"])
    }

    @Test func reloadAndNavigationRunTheUserScriptAgain() async throws {
        let pages = try TestPages(["index.html": Self.page("index"), "second.html": Self.page("second")])
        let runner = try RunnerProcess()
        defer { runner.stop() }
        try runner.send(startLine(uri: pages.uri("index.html")))
        var mark = try await runner.waitFor("load", ["event": "finished"]).index
        #expect(runner.events.filter { $0.kind == "post" }.map { $0["text"] } == [" saw object function"])

        try runner.send(#"{"kind":"reload"}"#)
        mark = try await runner.waitFor("load", ["event": "committed", "uri": pages.uri("index.html")], from: mark + 1).index
        mark = try await runner.waitFor("post", ["text": " saw object function"], from: mark).index
        mark = try await runner.waitFor("load", ["event": "finished"], from: mark).index

        try runner.send(commandLine(["kind": "load", "uri": pages.uri("second.html")]))
        mark = try await runner.waitFor("load", ["event": "committed", "uri": pages.uri("second.html")], from: mark + 1).index
        mark = try await runner.waitFor("post", ["text": " saw object function"], from: mark).index
        try await runner.waitFor("load", ["event": "finished", "uri": pages.uri("second.html")], from: mark)
        try runner.send(#"{"kind":"query","id":1,"script":"document.title"}"#)
        try await runner.waitFor("queryResult", ["id": "1", "json": "\"second\""])
    }

    @Test func framesReachTheHandlerButDoNotGetTheUserScript() async throws {
        let report = "window.webkit.messageHandlers.gbgBridge.postMessage(NAME + ' ' + typeof window.GBGBridge + ' ' + typeof window.webkit.messageHandlers.gbgBridge)"
        let pages = try TestPages([
            "index.html": """
                <!doctype html><html><body>
                <script>\(report.replacingOccurrences(of: "NAME", with: "'top'"))</script>
                <iframe srcdoc="<script>\(report.replacingOccurrences(of: "NAME", with: "&quot;srcdoc&quot;"))</script>"></iframe>
                <iframe src="frame.html"></iframe>
                </body></html>
                """,
            "frame.html": "<!doctype html><script>\(report.replacingOccurrences(of: "NAME", with: "'file'"))</script>",
        ])
        let runner = try RunnerProcess()
        defer { runner.stop() }
        try runner.send(startLine(uri: pages.uri("index.html")))
        try await runner.waitFor("post", ["text": "top object object"])
        try await runner.waitFor("post", ["text": "srcdoc undefined object"])
        try await runner.waitFor("post", ["text": "file undefined object"])
        try await runner.waitFor("load", ["event": "finished"])
    }

    @Test func evaluationsReportSuccessProbesAndWebKitsErrors() async throws {
        let pages = try TestPages(["index.html": Self.page("eval")])
        let runner = try RunnerProcess()
        defer { runner.stop() }
        try runner.send(startLine(uri: pages.uri("index.html")))
        try await runner.waitFor("load", ["event": "finished"])

        let commands: [[String: Any]] = [
            ["kind": "evaluate", "seq": 1, "script": "window.GBGBridge.receive({a: 1})"],
            ["kind": "evaluate", "seq": 2, "script": "window.GBGBridge.receive({a: 2})", "probe": "typeof window.GBGBridge.receive"],
            ["kind": "evaluate", "seq": 3, "script": "1", "probe": "undefined"],
            ["kind": "evaluate", "seq": 4, "script": "window.GBGBridge.receive = 1; window.GBGBridge.receive({})"],
            ["kind": "evaluate", "seq": 5, "script": "this is not js"],
            ["kind": "evaluate", "seq": 6, "script": "throw new Error('boom')", "probe": "({ok: [true]})"],
            ["kind": "evaluate", "seq": 7, "script": "2", "probe": "nosuch.thing"],
            ["kind": "query", "id": 1, "script": "({x: [1, 2], t: document.title})"],
            ["kind": "query", "id": 2, "script": "undefined"],
            ["kind": "query", "id": 3, "script": "(function () {})"],
        ]
        for command in commands { try runner.send(commandLine(command)) }

        let first = try await runner.waitFor("evaluated", ["seq": "1"])
        #expect(first.event["probe"] == nil)
        #expect(try await runner.waitFor("evaluated", ["seq": "2"]).event["probe"] == "\"function\"")
        #expect(try await runner.waitFor("evaluated", ["seq": "3"]).event["probe"] == "undefined")
        #expect(try await runner.waitFor("evaluateFailed", ["seq": "4"]).event["error"] == "TypeError: 1 is not a function")
        let syntax = try await runner.waitFor("evaluateFailed", ["seq": "5"]).event["error"] ?? ""
        #expect(syntax == pages.uri("index.html") + ":1: SyntaxError: Unexpected identifier 'is'")
        let thrown = try await runner.waitFor("evaluateFailed", ["seq": "6"]).event
        #expect(thrown["error"] == pages.uri("index.html") + ":1:24: Error: boom")
        #expect(thrown["probe"] == #"{"ok":[true]}"#)
        let badProbe = try await runner.waitFor("evaluated", ["seq": "7"]).event
        #expect(badProbe["probeError"] == pages.uri("index.html") + ":1:7: ReferenceError: Can't find variable: nosuch")
        let query = try await runner.waitFor("queryResult", ["id": "1"]).event["json"] ?? ""
        let object = try JSONSerialization.jsonObject(with: Data(query.utf8)) as? NSDictionary
        #expect(object == ["x": [1, 2], "t": "eval"] as NSDictionary)
        #expect(try await runner.waitFor("queryResult", ["id": "2"]).event["json"] == "undefined")
        #expect(try await runner.waitFor("queryFailed", ["id": "3"]).event["error"] == "Unsupported result type")

        // Events come in the order the commands were given.
        let order = runner.events.compactMap { event -> String? in
            ["evaluated", "evaluateFailed"].contains(event.kind) ? event["seq"] : (event.kind.hasPrefix("query") ? "q" + (event["id"] ?? "") : nil)
        }
        #expect(order == ["1", "2", "3", "4", "5", "6", "7", "q1", "q2", "q3"])
    }

    @Test func aLineOfManyMiBIsOneCommand() async throws {
        let runner = try RunnerProcess()
        defer { runner.stop() }
        try runner.send(startLine(uri: "about:blank"))
        try await runner.waitFor("load", ["event": "finished"])
        let length = 20 * 1024 * 1024
        try runner.send(commandLine(["kind": "query", "id": 9, "script": "'" + String(repeating: "a", count: length) + "'.length"]))
        try await runner.waitFor("queryResult", ["id": "9", "json": String(length)])
    }

    @Test func terminatingTheWebProcessFailsEvaluationsUntilALoad() async throws {
        let pages = try TestPages(["index.html": Self.page("index")])
        let runner = try RunnerProcess()
        defer { runner.stop() }
        try runner.send(startLine(uri: pages.uri("index.html")))
        var mark = try await runner.waitFor("load", ["event": "finished"]).index
        try runner.send(#"{"kind":"terminateWebProcess"}"#)
        mark = try await runner.waitFor("webProcessTerminated", ["reason": "terminatedByAPI"], from: mark).index
        try runner.send(#"{"kind":"evaluate","seq":1,"script":"1"}"#)
        let failed = try await runner.waitFor("evaluateFailed", ["seq": "1"], from: mark).event
        #expect(failed["error"] == "Unsupported result type")
        try runner.send(#"{"kind":"reload"}"#)
        mark = try await runner.waitFor("post", ["text": " saw object function"], from: mark).index
        try await runner.waitFor("load", ["event": "finished"], from: mark)
        try runner.send(#"{"kind":"evaluate","seq":2,"script":"1"}"#)
        try await runner.waitFor("evaluated", ["seq": "2"])
    }

    @Test func destroyingTheViewFailsEverythingAfterIt() async throws {
        let runner = try RunnerProcess()
        defer { runner.stop() }
        try runner.send(startLine(uri: "about:blank"))
        try await runner.waitFor("load", ["event": "finished"])
        try runner.send(#"{"kind":"destroyView"}"#)
        let destroyed = try await runner.waitFor("viewDestroyed").index
        for line in [#"{"kind":"evaluate","seq":1,"script":"1","probe":"2"}"#, #"{"kind":"query","id":2,"script":"1"}"#,
                     #"{"kind":"load","uri":"about:blank"}"#, #"{"kind":"reload"}"#, #"{"kind":"destroyView"}"#,
                     #"{"kind":"terminateWebProcess"}"#] {
            try runner.send(line)
        }
        try await runner.waitFor("evaluateFailed", ["seq": "1", "error": "the web view was destroyed"], from: destroyed)
        try await runner.waitFor("queryFailed", ["id": "2", "error": "the web view was destroyed"], from: destroyed)
        try await runner.waitFor("error", ["text": "load: the web view was destroyed"], from: destroyed)
        try await runner.waitFor("error", ["text": "reload: the web view was destroyed"], from: destroyed)
        try await runner.waitFor("error", ["text": "destroyView: the web view was destroyed already"], from: destroyed)
        try await runner.waitFor("error", ["text": "terminateWebProcess: the web view was destroyed"], from: destroyed)
        try runner.send(#"{"kind":"quit"}"#)
        #expect(try await runner.waitForExit() == 0)
        #expect(runner.events.filter { $0.kind == "viewDestroyed" }.count == 1)
    }

    @Test func malformedLinesGetAnErrorAndTheRunnerGoesOn() async throws {
        let runner = try RunnerProcess()
        defer { runner.stop() }
        try runner.send("not json at all")
        try await runner.waitFor("error", ["text": "malformed line (not JSON): not json at all"])
        try runner.send(startLine(uri: "about:blank"))
        try await runner.waitFor("load", ["event": "finished"])
        try runner.send(#"{"kind":"teleport"}"#)
        try runner.send(#"{"kind":"evaluate","script":"1"}"#)
        try runner.sendBytes([0xFF, 0xFE, 0x0A])
        try runner.send(startLine(uri: "about:blank"))
        try runner.send(#"{"kind":"query","id":5,"script":"'still here'"}"#)
        try await runner.waitFor("error", ["text": #"unknown kind "teleport""#])
        try await runner.waitFor("error", ["text": #""evaluate" needs "seq" (an integer)"#])
        try await runner.waitFor("error", ["text": "\"start\" came again; it is accepted once"])
        try await runner.waitFor("queryResult", ["id": "5", "json": "\"still here\""])
        #expect(runner.events.filter { $0.kind == "error" }.count == 5)
        #expect(runner.events.allSatisfy { $0.kind != "<not JSON>" })
    }

    @Test func endOfInputExitsZeroAndStopsXvfbAndWebKitsProcesses() async throws {
        let runner = try RunnerProcess()
        defer { runner.stop() }
        let display = try await runner.waitFor("started").event["display"] ?? ""
        try runner.send(startLine(uri: "about:blank"))
        try await runner.waitFor("load", ["event": "finished"])
        let children = RunnerProcess.children(of: runner.processID)
        #expect(children.contains { $0.name == "Xvfb" }, "children: \(children)")
        #expect(children.contains { $0.name.hasPrefix("WebKitNetwork") }, "children: \(children)")
        let socket = "/tmp/.X11-unix/X" + display.dropFirst()
        #expect(FileManager.default.fileExists(atPath: socket))

        runner.closeInput()
        #expect(try await runner.waitForExit() == 0)
        try await RunnerProcess.waitUntilGone(children.map(\.pid))
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(runner.standardError.contains("stopped Xvfb \(display)"))
    }

    @Test func aKilledRunnersXvfbExitsByItself() async throws {
        let runner = try RunnerProcess()
        defer { runner.stop() }
        try runner.send(startLine(uri: "about:blank"))
        try await runner.waitFor("load", ["event": "finished"])
        let children = RunnerProcess.children(of: runner.processID)
        let xvfb = try #require(children.first { $0.name == "Xvfb" })
        kill(runner.processID, SIGKILL)
        #expect(try await runner.waitForExit() == 128 + SIGKILL)
        try await RunnerProcess.waitUntilGone([xvfb.pid] + children.map(\.pid))
    }

    @Test func theFirstCommandMustBeStart() async throws {
        let runner = try RunnerProcess()
        defer { runner.stop() }
        try runner.send(#"{"kind":"evaluate","seq":1,"script":"1"}"#)
        try await runner.waitFor("fatal", ["text": #"the first command must be "start", not "evaluate""#])
        #expect(try await runner.waitForExit() == 1)
    }

    @Test func withoutADisplayItAsksForHeadless() async throws {
        let runner = try RunnerProcess(arguments: [], environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        defer { runner.stop() }
        let fatal = try await runner.waitFor("fatal").event["text"] ?? ""
        #expect(fatal.contains("--headless") && fatal.contains("desktop session"))
        #expect(try await runner.waitForExit() == 1)
    }

    @Test func helpSaysWhatItIsAndExitsZero() async throws {
        let runner = try RunnerProcess(arguments: ["--help"])
        defer { runner.stop() }
        #expect(try await runner.waitForExit() == 0)
        try await runner.waitForEvent("the usage's options line") { $0.line.contains("--headless") }
        let text = runner.events.map(\.line).joined(separator: "\n")
        #expect(text.contains("bridge-inspector host --webkit"))
    }

    @Test func sigtermEndsItLikeQuit() async throws {
        let runner = try RunnerProcess()
        defer { runner.stop() }
        try runner.send(startLine(uri: "about:blank"))
        try await runner.waitFor("load", ["event": "finished"])
        let children = RunnerProcess.children(of: runner.processID)
        kill(runner.processID, SIGTERM)
        #expect(try await runner.waitForExit() == 0)
        try await RunnerProcess.waitUntilGone(children.map(\.pid))
        #expect(runner.standardError.contains("stopped Xvfb"))
    }

    @Test func withoutHeadlessItUsesTheDisplayItWasGiven() async throws {
        let server = try TestXServer()
        defer { server.stop() }
        let runner = try RunnerProcess(arguments: ["--width", "640", "--height", "480"], environment: ["DISPLAY": server.display])
        defer { runner.stop() }
        try await runner.waitFor("started", ["display": server.display])
        try runner.send(startLine(uri: "about:blank"))
        try await runner.waitFor("load", ["event": "finished"])
        try runner.send(#"{"kind":"query","id":1,"script":"[innerWidth, innerHeight]"}"#)
        try await runner.waitFor("queryResult", ["id": "1", "json": "[640,480]"])
        #expect(!RunnerProcess.children(of: runner.processID).contains { $0.name == "Xvfb" })
        runner.closeInput()
        #expect(try await runner.waitForExit() == 0)
        #expect(RunnerProcess.isAlive(server.processID), "the runner must leave a display it did not start alone")
    }
}
