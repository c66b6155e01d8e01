import BridgeCore
import Foundation

/// The user script that lets breakpoints hold what the journey posts, on a host seen through
/// GBGBridge's public API (an app embedding GBGBridge), where GBGBridge itself has no point where
/// a message could wait.
///
/// It runs at document start in the main frame, after the page script (``OutgoingTapScript``),
/// whose `gbgBridgeInspector` handler it reports to, and wraps WebKit's
/// `UserMessageHandler.prototype.postMessage`. While the inspector has breakpoints, each
/// message the journey posts to `gbgBridge` waits in the page for the adapter's verdict:
///
/// | report (page to adapter) | meaning |
/// | --- | --- |
/// | `{"kind":"intercept","page":"<token>","id":"<n>","direction":"received","json":"<the message>"}` | the journey posted message `n`; it waits |
/// | `{"kind":"intercept","page":"<token>","id":"<n>","direction":"sent","json":"<the message>"}` | GBGBridge delivered message `n`; it waits before the journey's `receive` (the page script asks, through `askSent`) |
///
/// and the adapter answers with a ``PageInterceptCommand`` (evaluated as its ``PageInterceptCommand/script``,
/// or, where the page takes no scripts, handed over as data and called the same way):
/// `pass` (GBGBridge gets it now), `hold` (it stays, for `seconds` at most plus a grace), then
/// `release` (as it was, or the edited `json`), `drop` (it never goes on) or, for a request, `answer`
/// (the journey's `receive` gets the response `json`; GBGBridge never sees the request).
/// Deliveries from GBGBridge wait the same way before the journey's `receive` (the page script
/// hands each one over). Messages that are not held go on in the order they came, each
/// direction on its own.
///
/// Nothing can stall a journey: a message whose verdict does not come within
/// ``askMilliseconds`` goes on, a held one goes on when its time limit and a grace have passed,
/// and ``PageInterceptCommand/setHolding(_:)`` with `false` (breakpoints gone, or the inspector stopping) lets
/// everything go at once, in order. A new page starts by asking (its first posts wait for the
/// adapter's ``PageInterceptCommand/setHolding(_:)``, sent when the page script reports the page).
///
/// Where `UserMessageHandler` does not exist (a desktop browser behind `host --serve`'s shim) the
/// script wraps nothing: the shim's own `postMessage` hands each post over (`askReceived`).
public enum PageInterceptScript {
    /// How long a message waits for the adapter's verdict before it goes on by itself.
    public static let askMilliseconds = 5_000
    /// How long past its time limit a held message waits before the page lets it go by itself
    /// (the adapter releases it at the limit; this is for an adapter that is gone).
    public static let graceMilliseconds = 2_000
    /// The page's property the adapter's scripts call (non-enumerable, read-only).
    public static let entryPoint = "__gbgBridgeInspectorIntercept"

    /// What the adapter tells a held or waiting message.
    public enum Verdict: String, Sendable {
        case pass, hold, release, drop, answer
    }

    /// The JavaScript source of the user script (strict mode, one function expression).
    public static let source: String = #"""
        /* bridge-inspector: lets breakpoints hold what the journey posts to gbgBridge. See docs/real-apps.md. */
        (function () {
          "use strict";
          if (window.top !== window) { return; }
          var MARK = "\#(entryPoint)", ASK = \#(askMilliseconds), GRACE = \#(graceMilliseconds);
          var define = Object.defineProperty, has = Object.prototype.hasOwnProperty, freeze = Object.freeze;
          var apply = Reflect.apply, stringify = JSON.stringify, parse = JSON.parse;
          var later = setTimeout, cancel = clearTimeout;
          var handlers, reportTo, Handler, original, reportPost;
          try {
            handlers = window.webkit.messageHandlers;
            reportTo = handlers["\#(OutgoingTapScript.handlerName)"];
            Handler = window.UserMessageHandler;
            original = Handler && Handler.prototype && Handler.prototype.postMessage;
            if (typeof original !== "function") { original = undefined; }
            /* In WebKit every handler shares UserMessageHandler's postMessage; a page without it
               (host --serve's shim) has its own, and the shim hands posts over itself. */
            reportPost = original || (reportTo && reportTo.postMessage);
            if (has.call(window, MARK) || !reportTo || typeof reportPost !== "function") { return; }
          } catch (error) { return; }
          var page = Math.random().toString(36).slice(2) + "-" + Date.now().toString(36);
          var on = true, answering = false, next = 0, queues = { received: [], sent: [] }, items = {};
          function report(envelope) {
            try { apply(reportPost, reportTo, [stringify(envelope)]); } catch (error) { /* nothing can carry it */ }
          }
          function bridge() {
            try { return handlers.gbgBridge; } catch (error) { return undefined; }
          }
          function forward(value) {
            try { apply(original, bridge(), [value]); } catch (error) { /* as the journey's own post would have failed */ }
          }
          function ask(direction, value, json, go) {
            next += 1;
            var id = next, item = { value: value, state: "asking", timer: null, go: go, direction: direction };
            items[id] = item;
            queues[direction][queues[direction].length] = id;
            item.timer = later(function () { decide(id, "pass"); }, ASK);
            report({ kind: "intercept", page: page, id: String(id), direction: direction, json: json });
          }
          function flush(queue) {
            while (queue.length > 0 && items[queue[0]] && items[queue[0]].state !== "asking") {
              var id = queue.shift(), item = items[id];
              if (item.state === "pass") { delete items[id]; item.go(item.value); }
              else if (item.state === "drop") { delete items[id]; }
              /* held: stays in items until released or dropped (or answered, a request) */
            }
          }
          function decide(id, verdict, json, seconds) {
            var item = items[id];
            if (!item) { return false; }
            cancel(item.timer);
            item.timer = null;
            if (item.state === "asking") {
              if (verdict === "hold") {
                item.state = "held";
                item.timer = later(function () { decide(id, "release"); }, Math.max(0, Number(seconds) || 0) * 1000 + GRACE);
              } else {
                item.state = verdict === "drop" ? "drop" : "pass";
              }
              flush(queues[item.direction]);
              return true;
            }
            if (item.state !== "held") { return false; }
            delete items[id];
            if (verdict === "release") {
              var value = item.value;
              if (typeof json === "string") { try { value = parse(json); } catch (error) { value = item.value; } }
              item.go(value);
            } else if (verdict === "answer" && item.direction === "received" && typeof json === "string") {
              answering = true;
              try { window.GBGBridge.receive(parse(json)); } catch (error) { /* the journey's receive threw: as a delivery would */ }
              finally { answering = false; }
            }
            return true;
          }
          function setOn(flag) {
            on = flag === true;
            if (on) { return; }
            var ids = Object.keys(items).map(Number).sort(function (a, b) { return a - b; });
            for (var i = 0; i < ids.length; i++) {
              var item = items[ids[i]];
              if (!item) { continue; }
              cancel(item.timer);
              if (item.state === "held") { delete items[ids[i]]; item.go(item.value); } else { item.state = "pass"; }
            }
            flush(queues.received);
            flush(queues.sent);
          }
          /* Called by the page script (OutgoingTapScript) for each delivery it sees: true when the
             delivery now waits here, and `deliver` hands it to the journey's receive later. */
          function askSent(message, deliver) {
            if (!on || answering) { return false; }
            var json;
            try { json = stringify(message); } catch (error) { return false; }
            if (typeof json !== "string") { return false; }
            ask("sent", message, json, deliver);
            return true;
          }
          /* A post the journey made: true when it now waits here, and `go` hands it on later. */
          function askReceived(message, go) {
            if (!on) { return false; }
            var json;
            try { json = typeof message === "string" ? message : stringify(message); } catch (error) { return false; }
            if (typeof json !== "string") { return false; }
            ask("received", message, json, go);
            return true;
          }
          try {
            if (original) {
              Handler.prototype.postMessage = function postMessage(message) {
                if (this !== bridge() || !askReceived(message, forward)) { return apply(original, this, arguments); }
              };
            }
            define(window, MARK, { value: freeze({
              page: page,
              set: setOn,
              askSent: askSent,
              askReceived: askReceived,
              decide: function (forPage, id, verdict, json, seconds) { return forPage === page && decide(id, verdict, json, seconds); }
            }) });
          } catch (error) { /* the page cannot be wrapped: nothing is held */ }
        })();
        """#
}

/// What the adapter tells ``PageInterceptScript`` in the page: whether to hold at all, and each
/// waiting message's verdict. A web view evaluates ``script``; a page that takes no scripts
/// (`host --serve`'s shim, under a strict Content-Security-Policy) gets ``function`` and
/// ``arguments`` as data and makes the same call.
public enum PageInterceptCommand: Sendable, Equatable {
    /// Hold (breakpoints exist) or let everything go on, in order.
    case setHolding(Bool)
    /// Message `id` of page `page` gets `verdict`; `json` is the edited message (`release`) or the
    /// response (`answer`), `seconds` the time limit (`hold`).
    case decide(page: String, id: Int, verdict: PageInterceptScript.Verdict, json: Data? = nil, seconds: Double? = nil)

    /// The entry point's function this command calls (`set` or `decide`).
    public var function: String {
        switch self {
        case .setHolding: return "set"
        case .decide: return "decide"
        }
    }

    /// The call's arguments, as the text of a JSON array.
    public var arguments: String {
        switch self {
        case .setHolding(let on):
            return "[\(on)]"
        case .decide(let page, let id, let verdict, let json, let seconds):
            let values: [JSONValue] = [
                .string(page), .number(Double(id)), .string(verdict.rawValue),
                json.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null,
                .number(seconds.map { $0.isFinite ? max(0, $0) : 0 } ?? 0),
            ]
            return (try? JSONEncoding.encode(JSONValue.array(values))).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        }
    }

    /// The script a web view evaluates: the call, with the arguments as a JSON expression
    /// (escaped as the bridge's own deliveries are), ending in `void 0`.
    public var script: String {
        let entry = "window." + PageInterceptScript.entryPoint
        return "\(entry) && \(entry).\(function).apply(null, \(JavaScriptDelivery.escapedExpression(Data(arguments.utf8)))); void 0;"
    }
}
