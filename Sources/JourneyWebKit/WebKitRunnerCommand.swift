import BridgeCore
import Foundation

/// One line the host writes to the WebKit runner (`bridge-inspector-webkit`), which owns the web
/// view: see docs/web-journeys.md ("The WebKit runner's protocol") for every command and event.
///
/// ```swift
/// let line = try WebKitRunnerCommand.evaluate(seq: 1, script: delivery.javaScript, probe: nil).line()
/// ```
enum WebKitRunnerCommand: Sendable, Equatable {
    /// Registers the handlers and user scripts (document start, top frame only, in order) and loads `uri`: first, once.
    case start(handler: String, extraHandlers: [String], userScripts: [String], uri: String)
    /// Evaluates `script` in the page (a delivery); `probe` first, when given.
    case evaluate(seq: Int, script: String, probe: String?)
    /// Evaluates `script` in the page and reports its result as JSON text.
    case query(id: Int, script: String)
    /// Navigates the web view.
    case load(uri: String)
    /// Reloads the page.
    case reload
    /// Destroys the web view, as an app that lets its WKWebView go.
    case destroyView
    /// Kills the web content process.
    case terminateWebProcess
    /// Ends the runner.
    case quit

    /// The command as one JSON line, newline included.
    func line() throws -> Data {
        var data = try JSONEncoding.encode(Wire(self))
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The command's JSON object (absent fields are left out).
    private struct Wire: Encodable {
        var kind: String
        var handler: String?
        var extraHandlers: [String]?
        var userScripts: [String]?
        var uri: String?
        var seq: Int?
        var id: Int?
        var script: String?
        var probe: String?

        init(_ command: WebKitRunnerCommand) {
            switch command {
            case .start(let handler, let extraHandlers, let userScripts, let uri):
                kind = "start"
                self.handler = handler
                self.extraHandlers = extraHandlers
                self.userScripts = userScripts
                self.uri = uri
            case .evaluate(let seq, let script, let probe):
                kind = "evaluate"
                self.seq = seq
                self.script = script
                self.probe = probe
            case .query(let id, let script):
                kind = "query"
                self.id = id
                self.script = script
            case .load(let uri):
                kind = "load"
                self.uri = uri
            case .reload: kind = "reload"
            case .destroyView: kind = "destroyView"
            case .terminateWebProcess: kind = "terminateWebProcess"
            case .quit: kind = "quit"
            }
        }
    }
}
