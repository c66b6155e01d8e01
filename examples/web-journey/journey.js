/*
 * A small GBGBridge web journey: plain JavaScript, no build step.
 *
 * It talks to the native host exactly as a journey in a WKWebView does: it posts messages with
 * window.webkit.messageHandlers.gbgBridge.postMessage(message) and receives the host's messages
 * through window.GBGBridge.receive(message). In a desktop browser, `bridge-inspector host --serve`
 * provides both (docs/web-journeys.md).
 *
 * The flow: announce the journey, ask what the host can do (capability.query, 5 s timeout as the
 * web SDK's discoverCapabilities), ask for a document capture (120 s, as the SDK's capture
 * example), show what comes back, and react to host events (host.ready, host.ping, host.background,
 * host.foreground, host.orientation). Everything received is also kept as JSON in #journey-state.
 */
(function () {
  "use strict";

  // The web SDK's default timeouts.
  var TIMEOUT_MS = { capabilities: 5000, request: 30000, capture: 120000 };
  var PROTOCOL_VERSION = "1.0";

  var bridge = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.gbgBridge;
  var runId = Math.random().toString(16).slice(2, 8);
  var sequence = 0;
  var waiting = {}; // correlationId -> {action, resolve, timer}

  // What the page has seen, for people (the <details> block) and for tests.
  var state = {
    bridge: bridge ? "present" : "absent",
    hostReady: null,
    capabilities: null,
    capture: { status: "idle" },
    events: [],
    ignored: [],
    sent: []
  };

  // ---- A minimal web-side SDK ------------------------------------------------------------

  function nextId(prefix) {
    sequence += 1;
    return prefix + "-" + runId + "-" + sequence;
  }

  function post(type, action, data, correlationId) {
    var message = {
      version: PROTOCOL_VERSION,
      correlationId: correlationId,
      type: type,
      timestamp: Date.now(),
      payload: { action: action, data: data || {} }
    };
    bridge.postMessage(message);
    state.sent.push({ type: type, action: action, correlationId: correlationId });
    return message;
  }

  function sendEvent(action, data) {
    if (bridge) { post("event", action, data, nextId("web-event")); }
  }

  /** Sends a request; resolves with the response payload, or rejects with a TIMEOUT error. */
  function request(action, data, timeoutMs) {
    return new Promise(function (resolve, reject) {
      if (!bridge) {
        reject({ code: "UNSUPPORTED", message: "No GBGBridge in this page", recoverable: false });
        return;
      }
      var id = nextId("web");
      var timer = setTimeout(function () {
        delete waiting[id];
        reject({ code: "TIMEOUT", message: action + " got no response within " + timeoutMs + " ms", recoverable: true, correlationId: id });
      }, timeoutMs);
      waiting[id] = { action: action, resolve: resolve, timer: timer };
      post("request", action, data, id);
      if (action === "camera.document.capture") { state.capture.correlationId = id; }
    });
  }

  // The host calls this for every message it sends (window.GBGBridge.receive(<message>)).
  window.GBGBridge = window.GBGBridge || {};
  window.GBGBridge.receive = function (message) {
    if (!message || typeof message !== "object" || !message.payload) { return; }
    if (message.type === "response") {
      var waiter = waiting[message.correlationId];
      if (!waiter) {
        // Like the web SDK: a response nobody waits for (timed out, or sent by an earlier page) is ignored.
        state.ignored.push({ correlationId: message.correlationId, action: message.payload.action, status: message.payload.status });
        render();
        return;
      }
      clearTimeout(waiter.timer);
      delete waiting[message.correlationId];
      waiter.resolve(message.payload);
    } else if (message.type === "event") {
      onHostEvent(message.payload.action, message.payload.data || {});
    }
  };

  // ---- The journey -----------------------------------------------------------------------

  function onHostEvent(action, data) {
    state.events.push({ action: action, data: data, receivedAt: Date.now() });
    switch (action) {
      case "host.ready":
        state.hostReady = data;
        break;
      case "host.ping":
        sendEvent("journey.pong", { receivedAt: Date.now() });
        break;
      case "host.background":
        state.paused = true;
        break;
      case "host.foreground":
        state.paused = false;
        break;
      case "host.orientation":
        state.orientation = data.orientation;
        break;
    }
    render();
  }

  function discoverCapabilities() {
    return request("capability.query", {}, TIMEOUT_MS.capabilities).then(function (payload) {
      state.capabilities = { status: payload.status, data: payload.data || {}, error: payload.error || null };
      render();
    }, function (error) {
      state.capabilities = { status: "failed", error: error };
      render();
    });
  }

  function captureDocument() {
    state.capture = { status: "waiting", startedAt: Date.now() };
    var answered = request("camera.document.capture", { side: "front" }, TIMEOUT_MS.capture);
    render();
    return answered.then(function (payload) {
      state.capture.status = payload.status;
      state.capture.data = payload.data || null;
      state.capture.error = payload.error || null;
      render();
    }, function (error) {
      state.capture.status = "failed";
      state.capture.error = error;
      render();
    });
  }

  function start() {
    if (!bridge) {
      render();
      return;
    }
    document.getElementById("capture-again").addEventListener("click", function () { captureDocument(); });
    document.getElementById("cancel-journey").addEventListener("click", function () {
      sendEvent("journey.cancel", { reason: "The user cancelled the journey" });
      state.cancelled = true;
      render();
    });
    discoverCapabilities().then(captureDocument);
  }

  // Posted while the page is still loading: the bridge keeps it until its connection opens.
  if (bridge) { sendEvent("journey.started", { page: location.pathname }); }

  // ---- Showing it ------------------------------------------------------------------------

  function setStatus(id, stateName, text) {
    var element = document.getElementById(id);
    element.dataset.state = stateName;
    element.textContent = text;
  }

  function item(list, text, className) {
    var li = document.createElement("li");
    li.textContent = text;
    if (className) { li.className = className; }
    list.appendChild(li);
  }

  function render() {
    if (document.readyState === "loading") { return; }
    if (!bridge) {
      setStatus("bridge-status", "absent",
        "No GBGBridge here: open this page through `bridge-inspector host --serve`, or in the journey's iOS host. (Frames never get the bridge.)");
    } else if (state.cancelled) {
      setStatus("bridge-status", "cancelled", "Journey cancelled (journey.cancel sent).");
    } else if (state.paused) {
      setStatus("bridge-status", "paused", "The host app is in the background (host.background).");
    } else {
      setStatus("bridge-status", "connected", "Connected to the host through GBGBridge.");
    }

    var capabilities = document.getElementById("capabilities");
    capabilities.textContent = "";
    if (state.capabilities && state.capabilities.status === "success") {
      var data = state.capabilities.data;
      setStatus("capabilities-status", "done",
        "Host " + (data.hostVersion || "?") + " on " + (data.environment || "?") + ":");
      var ids = Object.keys(data.capabilities || {}).sort();
      ids.forEach(function (id) {
        var info = data.capabilities[id];
        item(capabilities, id + ": " + (info.supported ? "supported" : "not supported") +
          (info.permissionState ? ", permission " + info.permissionState : ""), info.supported ? "yes" : "no");
      });
    } else if (state.capabilities) {
      var problem = state.capabilities.error || {};
      setStatus("capabilities-status", "failed", "capability.query failed: " + (problem.code || state.capabilities.status) + " " + (problem.message || ""));
    }

    var capture = state.capture;
    var result = document.getElementById("capture-result");
    var preview = document.getElementById("capture-preview");
    result.textContent = "";
    preview.hidden = true;
    if (capture.status === "waiting") {
      var supported = state.capabilities && state.capabilities.data && state.capabilities.data.capabilities &&
        state.capabilities.data.capabilities["camera.document"];
      setStatus("capture-status", "waiting", "Waiting for the host to capture the document (" + capture.correlationId + ", up to " +
        TIMEOUT_MS.capture / 1000 + " s)" + (supported && !supported.supported
          ? ". The host reports camera.document unsupported, so the request waits in its pendingRequests: answer it from the inspector."
          : "."));
    } else if (capture.status === "success") {
      setStatus("capture-status", "success", "Document captured.");
      var info = capture.data || {};
      [["Width", info.imageWidth], ["Height", info.imageHeight], ["Type", info.mimeType],
        ["Bytes (base64)", info.imageBase64 ? info.imageBase64.length : 0]].forEach(function (pair) {
        var dt = document.createElement("dt");
        dt.textContent = pair[0];
        var dd = document.createElement("dd");
        dd.textContent = String(pair[1] === undefined ? "?" : pair[1]);
        result.appendChild(dt);
        result.appendChild(dd);
      });
      if (info.imageBase64 && /^image\/(png|jpeg|gif|webp)$/.test(info.mimeType || "")) {
        preview.src = "data:" + info.mimeType + ";base64," + info.imageBase64;
        preview.hidden = false;
      }
    } else if (capture.status !== "idle") {
      var error = capture.error || {};
      setStatus("capture-status", capture.status,
        "No document: " + capture.status + (error.code ? " (" + error.code + ": " + (error.message || "") + ")" : "") +
        (error.recoverable ? "; you can try again." : "."));
    }
    document.getElementById("capture-again").disabled = !bridge || capture.status === "waiting";
    document.getElementById("cancel-journey").disabled = !bridge || !!state.cancelled;

    if (state.hostReady) {
      setStatus("host-info", "ready", "host.ready: host version " + state.hostReady.version + ".");
    }
    var events = document.getElementById("events");
    events.textContent = "";
    state.events.forEach(function (event) {
      item(events, event.action + " " + JSON.stringify(event.data));
    });
    state.ignored.forEach(function (ignored) {
      item(events, "ignored a response nobody waits for: " + ignored.action + " (" + ignored.correlationId + ")", "ignored");
    });

    document.getElementById("journey-state").textContent = JSON.stringify(state, null, 2);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { render(); start(); }, { once: true });
  } else {
    render();
    start();
  }
})();
