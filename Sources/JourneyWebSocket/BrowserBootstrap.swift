import BridgeCore
import Foundation

/// The script that gives a page in a desktop browser the bridge a WKWebView gives it on iOS.
///
/// It runs at document start in the top-level frame only (in a frame it does nothing, as with
/// `forMainFrameOnly: true`), and:
/// - defines `window.webkit.messageHandlers.gbgBridge.postMessage(message)`, which sends the
///   message to the host over a WebSocket on loopback (authenticated by the host's cookie, or by
///   the `token` of the script's own URL for a page of another origin). The connection opens once the document is
///   parsed (`DOMContentLoaded`), so the page's own scripts have set up `receive` before the host
///   sends anything. Messages posted before it is open wait in the page (at most
///   ``maximumQueuedMessages``) and go out in order once it opens; if it never opens, or closes,
///   they are dropped with a console error, as nothing can carry them;
/// - runs the host's bootstrap script (by default GBGBridge's documented one, which defines the
///   `window.GBGBridge` namespace and its no-op `receive`);
/// - hands every host message to `window.GBGBridge.receive(...)`, looked up at the time of the
///   call, exactly as the core's ``JavaScriptDelivery`` script does: the host sends that very
///   script, `window.GBGBridge.receive(<json>);`, and the page, without `eval`, checks its form,
///   parses the JSON argument and makes the call. An exception thrown by `receive` is reported to
///   the host, which records `evaluateJavaScript failed: ...` in `lastError`, as on iOS;
/// - on the host's control frame `{"kind":"post",...}`, posts the message through
///   `window.webkit.messageHandlers.gbgBridge.postMessage`, looked up at the time of the call, as
///   the journey's own code would (``WebJourneyServer/postAsJourney(_:asObject:)``). A control
///   frame is not a delivery; one that is not JSON, or that fails, is a console error and
///   posts nothing, and one of an unknown kind a console warning.
///
/// With a ``PageReportChannel`` it also defines `window.webkit.messageHandlers.<handlerName>`,
/// whose posts go over the same WebSocket as reports, and runs the channel's script after the
/// bootstrap script (see ``script(bootstrapScript:pageReports:maximumFrameBytes:)``).
///
/// The wire format, one JSON text frame per item:
/// - page to host: `{"kind":"post","text":"<the message as posted, JSON text>"}` and
///   `{"kind":"evaluateFailed","seq":<n>,"error":"<text>"}` (`seq` counts the host's deliveries
///   from 1, control frames not included);
///   with a report channel also `{"kind":"report","text":"<the body as posted>"}`, or
///   `{"kind":"reportTooLarge","bytes":<n>}` in place of a report frame that would be larger than
///   the host accepts;
/// - host to page: the delivery script itself, which starts with `window.GBGBridge.receive(`, or
///   a control frame, which starts with `{`: `{"kind":"post","text":"<the message>","object":<bool>}`
///   makes the page post `text` (`JSON.parse(text)` when `object` is true) with `gbgBridge.postMessage`;
///   `{"kind":"reload"}` makes the page load again (``WebJourneyServer/reloadPage()``).
public enum BrowserBootstrap {
    /// The whole script served at ``WebJourneyPaths/bootstrapScript``, with `bootstrapScript`
    /// (default: GBGBridge's documented bootstrap) run after the shim in the top-level frame, and
    /// then, when given, the script of `pageReports`, which can post to its handler.
    /// `maximumFrameBytes` is the host's ``WebJourneyConfiguration/maximumMessageBytes``.
    public static func script(
        bootstrapScript: String = BridgeConfiguration.defaultBootstrapScript, pageReports: PageReportChannel? = nil,
        maximumFrameBytes: Int = 16 * 1024 * 1024
    ) -> String {
        var parts: [String] = [shimHead, holderDeclaration(pageReports?.holdingEntryPoint)]
        if let pageReports { parts.append(reportHandler(name: pageReports.handlerName, maximumFrameBytes: maximumFrameBytes)) }
        parts += [shimTail, bootstrapScript]
        if let pageReports { parts.append(pageReports.script) }
        return parts.joined(separator: "\n") + "\n}\n"
    }

    /// Defines the report handler, inside the shim's function (where `send` is): each post
    /// becomes a `report` frame, in order with the bridge's own frames. No page script can reach
    /// `send` or write frames of other kinds through it.
    static func reportHandler(name: String, maximumFrameBytes: Int) -> String {
        // The name goes into the script as a JSON string literal: no text of it can be code. The
        // default encoder, not JSONEncoding's, on purpose: it escapes `/`, so no `</script>` either.
        let literal = (try? JSONEncoder().encode(name)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
        return #"""
              var REPORT_HANDLER = \#(literal), MAX_FRAME = \#(maximumFrameBytes);
              try {
                Object.defineProperty(window.webkit.messageHandlers, REPORT_HANDLER, { enumerable: true, value: Object.freeze({
                  postMessage: function (body) {
                    var text = typeof body === "string" ? body : JSON.stringify(body);
                    if (typeof text !== "string") {
                      throw new TypeError(REPORT_HANDLER + ".postMessage: the message cannot be serialised");
                    }
                    var frame = JSON.stringify({ kind: "report", text: text });
                    if (frame.length * 3 > MAX_FRAME) {
                      var bytes = new TextEncoder().encode(frame).length;
                      if (bytes > MAX_FRAME) { frame = JSON.stringify({ kind: "reportTooLarge", bytes: bytes }); }
                    }
                    send(frame);
                  }
                }) });
              } catch (error) {
                console.error("[GBGBridge] cannot define window.webkit.messageHandlers." + REPORT_HANDLER + ": " + error);
              }
            """#
    }

    /// `var HOLDER = "<name>";` (a JSON string literal: no text of it can be code), or `null`:
    /// the page property of the script that may hold posts for breakpoints.
    static func holderDeclaration(_ name: String?) -> String {
        let literal = name.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) } ?? "null"
        return "  var HOLDER = \(literal);"
    }

    /// The most messages a page keeps while its connection is opening.
    public static let maximumQueuedMessages = 1000

    /// The WebSocket close code the host uses when a newer page context takes over.
    public static let supersededCloseCode = 4001

    /// The shim's start, which opens the top-frame block that the bootstrap script and `}` close,
    /// and the function that ``shimTail`` closes.
    static let shimHead = #"""
        /* GBGBridge for web journeys in a desktop browser, served by `bridge-inspector host`.
           See docs/web-journeys.md. Top-level frame only, as WKWebView's forMainFrameOnly. */
        if (window.top === window) {
        (function () {
          "use strict";
          var existing = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.gbgBridge;
          if (existing) { return; }
          var PREFIX = "\#(JavaScriptDelivery.receiveFunction)(";
          var SUFFIX = ");";
          var MAX_QUEUED = \#(maximumQueuedMessages);
          var script = document.currentScript;
          var url = new URL("\#(WebJourneyPaths.socket)", (script && script.src) || location.href);
          url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
          url.search = "";
          url.searchParams.set("page", location.pathname);
          // A page of another origin has no cookie of the host: it included this script from the
          // URL the host printed, with the token, and the WebSocket carries the same. The host's
          // own pages include it without a token and rely on the cookie, so no page learns the
          // token from here that its own markup did not already hold.
          var token = script && script.src ? new URL(script.src).searchParams.get("\#(AccessToken.queryParameter)") : null;
          if (token) { url.searchParams.set("\#(AccessToken.queryParameter)", token); }
          var state = "connecting";
          var queue = [];
          var received = 0;
          var socket = null;
          function dropQueued(why) {
            if (queue.length > 0) {
              console.error("[GBGBridge] " + queue.length + " message(s) posted before the connection to the host opened were dropped: " + why);
              queue = [];
            }
          }
          function postNow(message) {
            var text = typeof message === "string" ? message : JSON.stringify(message);
            if (typeof text !== "string") {
              throw new TypeError("gbgBridge.postMessage: the message cannot be serialised");
            }
            send(JSON.stringify({ kind: "post", text: text }));
          }
          var gbgBridge = Object.freeze({
            postMessage: function (message) {
              // While the inspector has breakpoints, its page script may hold the post (host
              // --serve --inspect-via public-api); it posts it later, or never (dropped).
              var holder = HOLDER ? window[HOLDER] : null;
              if (holder && typeof holder.askReceived === "function" && holder.askReceived(message, postNow)) { return; }
              postNow(message);
            }
          });
          // Sends a frame now, or once the connection is open (in order with every other frame).
          function send(frame) {
            if (state === "open") {
              socket.send(frame);
            } else if (state === "connecting") {
              if (queue.length >= MAX_QUEUED) {
                console.error("[GBGBridge] message dropped: " + MAX_QUEUED + " messages are already waiting for the connection to the host to open");
                return;
              }
              queue.push(frame);
            } else {
              console.warn("[GBGBridge] message dropped: this page is not connected to the host any more; reload the page to attach again");
            }
          }
          try {
            window.webkit = window.webkit || {};
            window.webkit.messageHandlers = window.webkit.messageHandlers || {};
            Object.defineProperty(window.webkit.messageHandlers, "gbgBridge", { value: gbgBridge, enumerable: true });
          } catch (error) {
            console.error("[GBGBridge] cannot define window.webkit.messageHandlers.gbgBridge: " + error);
            return;
          }
        """#

    /// The rest of the shim, after the handlers are defined.
    static let shimTail = #"""
          function report(seq, error) {
            console.error("[GBGBridge] delivery " + seq + " failed: " + error);
            if (state === "open") {
              socket.send(JSON.stringify({ kind: "evaluateFailed", seq: seq, error: String(error) }));
            }
          }
          function deliver(text, seq) {
            if (typeof text !== "string" || text.length < PREFIX.length + SUFFIX.length ||
                text.slice(0, PREFIX.length) !== PREFIX || text.slice(text.length - SUFFIX.length) !== SUFFIX) {
              report(seq, "SyntaxError: the host sent something other than a " + PREFIX + "...) call");
              return;
            }
            var message;
            try {
              message = JSON.parse(text.slice(PREFIX.length, text.length - SUFFIX.length));
            } catch (error) {
              report(seq, error);
              return;
            }
            try {
              window.GBGBridge.receive(message);
            } catch (error) {
              report(seq, error);
            }
          }
          function describe(error) {
            try { return String(error); } catch (ignored) { return "an exception that cannot be shown"; }
          }
          // A control frame of the host: JSON, never a delivery. `post` makes the page post its
          // text through the handler the journey's own code uses, looked up now.
          function control(text) {
            var command;
            try {
              command = JSON.parse(text);
            } catch (error) {
              console.error("[GBGBridge] the host sent a control frame that is not JSON; it was ignored: " + describe(error));
              return;
            }
            if (command === null || typeof command !== "object") {
              console.error("[GBGBridge] the host sent a control frame that is not a JSON object; it was ignored");
              return;
            }
            if (command.kind === "intercept") {
              hold(command);
              return;
            }
            if (command.kind === "reload") {
              location.reload();
              return;
            }
            if (command.kind !== "post") {
              console.warn("[GBGBridge] the host sent a control frame of an unknown kind (" + describe(command.kind) + "); it was ignored");
              return;
            }
            if (typeof command.text !== "string") {
              console.error("[GBGBridge] the host's post as the journey has no text; nothing was posted");
              return;
            }
            var message;
            try {
              message = command.object === true ? JSON.parse(command.text) : command.text;
            } catch (error) {
              console.error("[GBGBridge] the host's post as the journey is not JSON, so it cannot be posted as an object; nothing was posted: " + describe(error));
              return;
            }
            try {
              window.webkit.messageHandlers.gbgBridge.postMessage(message);
            } catch (error) {
              console.error("[GBGBridge] the host's post as the journey failed in window.webkit.messageHandlers.gbgBridge.postMessage: " + describe(error));
            }
          }
          // The host's `intercept` frame: a call of the holding script's `set` or `decide`.
          function hold(command) {
            var holder = HOLDER ? window[HOLDER] : null;
            if (!holder) {
              console.warn("[GBGBridge] the host sent a breakpoint command, but no script here holds messages; it was ignored");
              return;
            }
            if ((command.call !== "set" && command.call !== "decide") || !Array.isArray(command.args) || typeof holder[command.call] !== "function") {
              console.error("[GBGBridge] the host sent a breakpoint command this page cannot carry out; it was ignored");
              return;
            }
            try {
              holder[command.call].apply(null, command.args);
            } catch (error) {
              console.error("[GBGBridge] a breakpoint command failed: " + describe(error));
            }
          }
          function connect() {
            try {
              socket = new WebSocket(url.href);
            } catch (error) {
              state = "closed";
              dropQueued("cannot connect to the host at " + url.href + ": " + error);
              return;
            }
            socket.onopen = opened;
            socket.onmessage = function (event) {
              if (typeof event.data === "string" && event.data.charAt(0) === "{") {
                control(event.data);
                return;
              }
              received += 1;
              deliver(event.data, received);
            };
            socket.onclose = closed;
          }
          function opened() {
            state = "open";
            var waiting = queue;
            queue = [];
            for (var i = 0; i < waiting.length; i++) { socket.send(waiting[i]); }
          }
          function closed(event) {
            var wasOpen = state === "open";
            state = "closed";
            dropQueued("the connection could not be opened (is `bridge-inspector host` running, was this page opened from the URL it printed, and is this page's origin allowed?)");
            if (wasOpen) {
              console.warn("[GBGBridge] the host closed the bridge connection (" + event.code + (event.reason ? ": " + event.reason : "") + "); reload the page to attach again");
            }
          }
          // The connection opens once the document is parsed, when the page's own scripts (classic,
          // defer and module) have run and set up window.GBGBridge.receive; the host then sends
          // host.ready. Messages posted before wait in `queue` and go out in order.
          if (document.readyState === "loading") {
            document.addEventListener("DOMContentLoaded", connect, { once: true });
          } else {
            connect();
          }
        })();
        """#
}
