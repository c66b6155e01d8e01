/// The page script that lets the inspector see what a GBGBridge app sends to its journey.
///
/// GBGBridge's public API does not show the responses and events the host sends: it delivers
/// each with `evaluateJavaScript` calling `window.GBGBridge.receive(<message>)` in the page. This
/// script, injected as a user script at document start in the main frame (in the page's world,
/// in any order relative to GBGBridge's own bootstrap), wraps whatever function is in
/// `window.GBGBridge.receive` and, for every call, posts an exact copy of the message to the
/// script message handler ``handlerName``, where ``OutgoingTapReport`` decodes it.
///
/// What it does (docs/real-apps.md, "How the inspector sees what the app sends"):
/// - `window.GBGBridge` becomes an accessor on `window` (so a journey that replaces the whole
///   object is followed) and `receive` an accessor on each object stored there. Reading
///   `window.GBGBridge` gives the page's own object; reading `receive` gives a `Proxy` of the
///   journey's function (one per function, so it compares equal to itself; assigning it back
///   stores the journey's function again, not a second wrapper). It cannot be the journey's own
///   function: the host reads the same property to make its call, and nothing tells the two
///   reads apart. Its `toString()` (the troubleshooting page's check) answers what the journey's
///   function answers: the original `Function.prototype.toString`, captured when the script
///   starts, applied to it; only `Function.prototype.toString.call(receive)` still shows
///   `[native code]`.
/// - A call of GBGBridge's no-op bootstrap `receive` (its source, read with that captured
///   `toString`, is `function(){}` once whitespace is removed) is reported with
///   `"lost":"<why>"` in the `sent` envelope: the journey has not set its own `receive` yet.
/// - A call reports `JSON.stringify(message)` (captured before the page's scripts run) as the
///   string `{"kind":"sent","json":"..."}`, before the journey's function runs, then calls that
///   function with the very same arguments and `this`; its result or exception comes back
///   unchanged. A chain of wrappers handing on the same message (a journey that re-wraps
///   `receive`) reports it once.
/// - A value JSON cannot represent is reported as `{"kind":"unreportable","reason":"..."}`:
///   `undefined` or a function as the message, a cycle, a `BigInt`, a throwing getter or
///   `toJSON`. Inside a message, JSON's own rules apply: `undefined` and functions are left out
///   of objects, `NaN` and infinities become `null`. A message whose JSON is longer than
///   ``maximumMessageLength`` UTF-16 units is reported as unreportable too.
/// - `{"kind":"page","url":"..."}` is posted once when it starts on a page, and
///   `{"kind":"blind","reason":"..."}` when an object stored in `window.GBGBridge` cannot be
///   tapped (frozen, or with a `receive` the page defined as non-configurable or as an accessor).
///
/// Nothing it does throws into the page: when posting fails, the report is lost and the journey
/// is unaffected. Without the handler it does nothing at all. Running it twice on a page (two
/// injections) is the same as running it once.
public enum OutgoingTapScript {
    /// The name of the script message handler the reports go to
    /// (`window.webkit.messageHandlers.gbgBridgeInspector`). GBGBridge's own is `gbgBridge`.
    public static let handlerName = "gbgBridgeInspector"

    /// The longest message JSON (in UTF-16 code units, as JavaScript counts) that is reported in
    /// full; a longer one is reported as `unreportable` with its length.
    public static let maximumMessageLength = 16 * 1024 * 1024

    /// The JavaScript source of the user script (strict mode, one function expression).
    public static let source: String = #"""
        /* bridge-inspector: reports each call of window.GBGBridge.receive to the "\#(handlerName)"
           message handler. See docs/real-apps.md. */
        (function () {
          "use strict";
          if (window.top !== window) { return; }
          var MARK = "__gbgBridgeInspectorTap", MAX = \#(maximumMessageLength);
          var has = Object.prototype.hasOwnProperty, define = Object.defineProperty;
          var describe = Object.getOwnPropertyDescriptor, extensible = Object.isExtensible;
          var stringify = JSON.stringify, apply = Reflect.apply, reflectGet = Reflect.get, Proxy_ = Proxy;
          var functionToString = Function.prototype.toString, WeakMap_ = WeakMap;
          var LOST = "the journey has not set window.GBGBridge.receive yet: the message reached GBGBridge's no-op bootstrap receive";
          var handler;
          try {
            handler = window.webkit.messageHandlers["\#(handlerName)"];
            if (has.call(window, MARK) || !handler) { return; }
            define(window, MARK, { value: true });
          } catch (error) { return; }
          var postMessage = handler.postMessage;
          function post(envelope) {
            try { apply(postMessage, handler, [stringify(envelope)]); } catch (error) { /* nothing can carry it */ }
          }
          function text(error) {
            try { return String(error).slice(0, 200); } catch (other) { return "an error that cannot be described"; }
          }
          function report(message, lost) {
            var json, envelope;
            try {
              json = stringify(message);
              envelope = typeof json !== "string" ? { kind: "unreportable", reason: "receive got " + typeof message + ", which JSON cannot represent" }
                : json.length > MAX ? { kind: "unreportable", reason: "a message of " + json.length + " characters, over the limit of " + MAX }
                : lost ? { kind: "sent", json: json, lost: LOST } : { kind: "sent", json: json };
            } catch (error) {
              envelope = { kind: "unreportable", reason: "JSON.stringify failed: " + text(error) };
            }
            post(envelope);
          }
          var noOps = new WeakMap_(), toStrings = new WeakMap_();
          /* GBGBridge's bootstrap receive: its source, read with the original
             Function.prototype.toString, is function(){} once whitespace is removed
             (no name, no parameters, an empty body). Read without the page's built-ins. */
          var SPACE = " \t\n\r\v\f\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";
          function isNoOp(target) {
            if (noOps.has(target)) { return noOps.get(target); }
            var result = false, source, kept = "", i, j, space;
            try { source = apply(functionToString, target, []); } catch (error) { source = ""; /* not readable: not the bootstrap's */ }
            if (typeof source === "string" && source.length <= 256) {
              for (i = 0; i < source.length; i++) {
                for (j = 0, space = false; j < SPACE.length; j++) { if (source[i] === SPACE[j]) { space = true; } }
                if (!space) { kept += source[i]; }
              }
              result = kept === "function(){}";
            }
            noOps.set(target, result);
            return result;
          }
          /* receive.toString() answers what the journey's own function answers. */
          function sourceOf(target) {
            var answer = toStrings.get(target);
            if (!answer) {
              answer = { toString: function () { return apply(functionToString, target, []); } }.toString;
              toStrings.set(target, answer);
            }
            return answer;
          }
          var wrappers = new WeakMap(), originals = new WeakMap(), tapped = new WeakSet(), active = [];
          function wrap(journeyReceive) {
            if (typeof journeyReceive !== "function" || originals.has(journeyReceive)) { return journeyReceive; }
            var wrapper = wrappers.get(journeyReceive);
            if (!wrapper) {
              wrapper = new Proxy_(journeyReceive, {
                apply: function (target, self, args) {
                  var message = args[0];
                  for (var i = 0; i < active.length; i++) {
                    if (active[i] === message) { return apply(target, self, args); }
                  }
                  var lost = isNoOp(target);
                  report(message, lost);
                  /* While breakpoints are set, PageInterceptScript may hold the delivery here. */
                  var holder = lost ? undefined : reflectGet(window, "\#(PageInterceptScript.entryPoint)");
                  if (holder && typeof holder.askSent === "function" && holder.askSent(message, function (value) {
                    active[active.length] = value;
                    try { apply(target, self, [value]); } finally { active.length -= 1; }
                  })) { return undefined; }
                  active[active.length] = message;
                  try { return apply(target, self, args); } finally { active.length -= 1; }
                },
                get: function (target, key, receiver) {
                  var value = reflectGet(target, key, receiver);
                  if (key === "toString" && value === functionToString && !describe(target, key)) { return sourceOf(target); }
                  return value;
                }
              });
              wrappers.set(journeyReceive, wrapper);
              originals.set(wrapper, journeyReceive);
            }
            return wrapper;
          }
          function tap(bridge) {
            if (bridge === null || (typeof bridge !== "object" && typeof bridge !== "function") || tapped.has(bridge)) { return; }
            try {
              var own = describe(bridge, "receive");
              if (own ? !own.configurable || !has.call(own, "value") : !extensible(bridge)) {
                post({ kind: "blind", reason: own ? "window.GBGBridge.receive is fixed or an accessor" : "window.GBGBridge cannot be extended" });
                return;
              }
              var current = own ? own.value : undefined;
              define(bridge, "receive", {
                configurable: true, enumerable: own ? own.enumerable : true,
                get: function () { try { return wrap(current); } catch (error) { return current; } },
                set: function (value) { current = (typeof value === "function" && originals.get(value)) || value; }
              });
              tapped.add(bridge);
            } catch (error) {
              post({ kind: "blind", reason: "window.GBGBridge cannot be tapped: " + text(error) });
            }
          }
          try {
            var bridge = window.GBGBridge, slot = describe(window, "GBGBridge");
            if (!slot || slot.configurable) {
              define(window, "GBGBridge", {
                configurable: true, enumerable: slot ? slot.enumerable : true,
                get: function () { return bridge; },
                set: function (value) { bridge = value; tap(value); }
              });
            }
            tap(bridge);
          } catch (error) {
            post({ kind: "blind", reason: "window.GBGBridge cannot be followed: " + text(error) });
          }
          post({ kind: "page", url: String(location.href) });
        })();
        """#
}
