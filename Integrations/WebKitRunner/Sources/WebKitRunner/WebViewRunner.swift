import CWebKitGTK
import Glibc
import WebKitRunnerCore

/// The one object that owns the window, the web view and the conversation with the host.
///
/// Why one object: every C callback (signals, evaluation completions, standard input) gets a
/// single `user_data` pointer, and all of them must reach the same state (the view, whether
/// `start` came, whether the view is gone). How: callbacks are `@convention(c)` closures that
/// recover this object with `Unmanaged` (it lives as long as the process), and everything runs on
/// the thread that called `gtk_init` and runs the GLib main loop: nothing here is thread-safe,
/// and nothing needs to be.
final class WebViewRunner {
    static let destroyedText = "the web view was destroyed"
    /// Shown as the source of evaluated scripts in WebKit's error locations.
    static let evaluationSourceURI = "bridge-inspector-delivery"

    private let writer: EventWriter
    private let loop: OpaquePointer
    private var window: UnsafeMutablePointer<GtkWidget>?
    private var view: UnsafeMutablePointer<WebKitWebView>?
    private var contentManager: UnsafeMutablePointer<WebKitUserContentManager>?
    private var startReceived = false
    private var viewDestroyedReported = false
    private var shuttingDown = false
    private var firstLoadFinishedLogged = false
    /// One entry per registered handler: the `user_data` of its signal.
    private var handlerRegistrations: [HandlerRegistration] = []
    /// The status `main` exits with.
    private(set) var exitStatus: Int32 = 0

    init(writer: EventWriter, loop: OpaquePointer) {
        self.writer = writer
        self.loop = loop
    }

    private var selfPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> WebViewRunner? {
        guard let userData else { return nil }
        return Unmanaged<WebViewRunner>.fromOpaque(userData).takeUnretainedValue()
    }

    // MARK: The view

    /// Builds the window and the web view (not yet loading anything) and shows them.
    func createView(width: Int, height: Int) {
        // WebKitGTK's 4.x API leaves the bubblewrap sandbox off by default; turn it on before the
        // first web process starts (it works as root here).
        webkit_web_context_set_sandbox_enabled(webkit_web_context_get_default(), 1)
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        gtk_window_set_title(shim_widget_as_window(window), "bridge-inspector (WebKit)")
        gtk_window_set_default_size(shim_widget_as_window(window), gint(width), gint(height))
        let widget = webkit_web_view_new()!
        let view = shim_widget_as_web_view(widget)!
        gtk_container_add(shim_widget_as_container(window), widget)
        self.window = window
        self.view = view
        self.contentManager = webkit_web_view_get_user_content_manager(view)

        shim_connect_load_changed(view, { view, event, userData in
            WebViewRunner.from(userData)?.loadChanged(view, event)
        }, selfPointer)
        shim_connect_load_failed(view, { _, _, failingURI, error, userData in
            let uri = failingURI.map { String(cString: $0) } ?? ""
            let message = error.flatMap { $0.pointee.message }.map { String(cString: $0) } ?? "unknown error"
            WebViewRunner.from(userData)?.send(.loadFailed(uri: uri, error: message))
            return 0  // let WebKit show its error page too
        }, selfPointer)
        shim_connect_web_process_terminated(view, { _, reason, userData in
            let name: RunnerEvent.TerminationReason = switch reason {
            case WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT: .exceededMemoryLimit
            case WEBKIT_WEB_PROCESS_TERMINATED_BY_API: .terminatedByAPI
            default: .crashed
            }
            WebViewRunner.from(userData)?.send(.webProcessTerminated(reason: name))
        }, selfPointer)
        shim_connect_destroy(widget, { _, userData in
            WebViewRunner.from(userData)?.viewWasDestroyed()
        }, selfPointer)
        shim_connect_destroy(window, { _, userData in
            WebViewRunner.from(userData)?.window = nil
        }, selfPointer)

        gtk_widget_show_all(window)
    }

    private func loadChanged(_ view: UnsafeMutablePointer<WebKitWebView>?, _ event: WebKitLoadEvent) {
        let step: RunnerEvent.LoadEvent
        switch event {
        case WEBKIT_LOAD_STARTED: step = .started
        case WEBKIT_LOAD_REDIRECTED: step = .redirected
        case WEBKIT_LOAD_COMMITTED: step = .committed
        default: step = .finished
        }
        let uri = view.flatMap { webkit_web_view_get_uri($0) }.map { String(cString: $0) } ?? ""
        if step == .finished && !firstLoadFinishedLogged {
            firstLoadFinishedLogged = true
            logLine("first load finished \(millisecondsSinceStart()) ms after launch (\(uri))")
        }
        send(.load(event: step, uri: uri))
    }

    private func viewWasDestroyed() {
        view = nil
        contentManager = nil
        guard !viewDestroyedReported else { return }
        viewDestroyedReported = true
        if !shuttingDown { send(.viewDestroyed) }
    }

    // MARK: Commands

    /// Handles one piece of input from the host.
    func handle(_ piece: LineBuffer.Piece) {
        guard !shuttingDown else { return }  // lines after `quit` in the same chunk
        switch piece {
        case let .tooLong(byteCount):
            send(.error(text: "line too long: \(byteCount) bytes, over the 256 MiB limit; ignored"))
        case let .line(bytes):
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }  // blank line
            switch RunnerCommand.decode(line: bytes) {
            case let .failure(problem): send(.error(text: problem.text))
            case let .success(command): handle(command)
            }
        }
    }

    private func handle(_ command: RunnerCommand) {
        if !startReceived {
            switch command {
            case .start, .quit: break
            default:
                send(.fatal(text: "the first command must be \"start\", not \"\(command.kind)\""))
                exitStatus = 1
                stop()
                return
            }
        }
        switch command {
        case let .start(start): self.start(start)
        case let .evaluate(seq, script, probe):
            evaluate(EvaluationContext(purpose: .delivery(seq: seq, hasProbe: probe != nil)), probe: probe, script: script)
        case let .query(id, script):
            evaluate(EvaluationContext(purpose: .query(id: id)), probe: nil, script: script)
        case let .load(uri):
            guard let view else { return send(.error(text: "load: \(Self.destroyedText)")) }
            webkit_web_view_load_uri(view, uri)
        case .reload:
            guard let view else { return send(.error(text: "reload: \(Self.destroyedText)")) }
            webkit_web_view_reload(view)
        case .destroyView:
            guard view != nil else { return send(.error(text: "destroyView: \(Self.destroyedText) already")) }
            destroyWindow()
        case .terminateWebProcess:
            guard let view else { return send(.error(text: "terminateWebProcess: \(Self.destroyedText)")) }
            webkit_web_view_terminate_web_process(view)
        case .quit:
            stop()
        }
    }

    private func start(_ start: StartCommand) {
        guard !startReceived else { return send(.error(text: "\"start\" came again; it is accepted once")) }
        startReceived = true
        guard let view, let contentManager else { return send(.error(text: "start: \(Self.destroyedText)")) }
        for name in start.allHandlers {
            let registration = HandlerRegistration(name: name, runner: self)
            handlerRegistrations.append(registration)
            // Connect before registering, as WebKit recommends, so no message can be missed.
            shim_connect_script_message_received(contentManager, name, { _, result, userData in
                guard let userData else { return }
                let registration = Unmanaged<HandlerRegistration>.fromOpaque(userData).takeUnretainedValue()
                registration.runner.posted(result, to: registration.name)
            }, Unmanaged.passUnretained(registration).toOpaque())
            if webkit_user_content_manager_register_script_message_handler(contentManager, name) == 0 {
                send(.error(text: "start: WebKit refused to register the message handler \"\(name)\""))
            }
        }
        for source in start.userScripts {
            let script = webkit_user_script_new(
                source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, nil, nil)
            webkit_user_content_manager_add_script(contentManager, script)
            webkit_user_script_unref(script)
        }
        webkit_web_view_load_uri(view, start.uri)
    }

    /// A page posted `result` to the handler `name`.
    private func posted(_ result: OpaquePointer?, to name: String) {
        guard let result, let value = webkit_javascript_result_get_js_value(result) else {
            return send(.postFailed(handler: name, error: "WebKit gave no body"))
        }
        if jsc_value_is_string(value) != 0 {
            let text = takeString(jsc_value_to_string(value)) ?? ""
            return send(.post(handler: name, text: text))
        }
        switch Self.jsonText(of: value, what: "the posted body") {
        case let .value(json) where json != "undefined": send(.post(handler: name, text: json))
        case .value: send(.postFailed(handler: name, error: "the posted body has no JSON form (JSON.stringify gives nothing for it)"))
        case let .failed(error): send(.postFailed(handler: name, error: error))
        }
    }

    // MARK: Evaluation

    private func evaluate(_ context: EvaluationContext, probe: String?, script: String) {
        guard let view else { return send(context.failedBeforeStart(Self.destroyedText)) }
        if let probe { startEvaluation(of: probe, in: view, role: .probe, context: context) }
        startEvaluation(of: script, in: view, role: .script, context: context)
    }

    private func startEvaluation(
        of script: String, in view: UnsafeMutablePointer<WebKitWebView>,
        role: EvaluationContext.Role, context: EvaluationContext
    ) {
        let request = EvaluationRequest(context: context, role: role, runner: self)
        var bytes = Array(script.utf8)
        bytes.append(0)
        bytes.withUnsafeBufferPointer { buffer in
            // Never empty: it holds at least the terminating zero.
            guard let base = buffer.baseAddress else { return }
            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { source in
                webkit_web_view_evaluate_javascript(
                    view, source, gssize(buffer.count - 1), nil, Self.evaluationSourceURI, nil,
                    { object, result, userData in
                        guard let userData else { return }
                        let request = Unmanaged<EvaluationRequest>.fromOpaque(userData).takeRetainedValue()
                        request.runner.evaluationFinished(request, source: object, result: result)
                    },
                    Unmanaged.passRetained(request).toOpaque())
            }
        }
    }

    private func evaluationFinished(
        _ request: EvaluationRequest, source: UnsafeMutablePointer<GObject>?, result: OpaquePointer?
    ) {
        var outcome = EvaluationContext.Outcome.failed("WebKit gave no result")
        if let source, let view = shim_object_as_web_view(source) {
            var error: UnsafeMutablePointer<GError>? = nil
            let value = webkit_web_view_evaluate_javascript_finish(view, result, &error)
            if let value {
                outcome = request.context.needsResult(of: request.role)
                    ? Self.jsonText(of: value, what: "the result") : .value("")
                g_object_unref(value)
            } else {
                outcome = .failed(error.flatMap { $0.pointee.message }.map { String(cString: $0) } ?? "unknown error")
            }
            if error != nil { g_error_free(error) }
        }
        if let event = request.context.record(outcome, for: request.role) { send(event) }
    }

    /// A value's JSON text, "undefined" when JSON.stringify would give undefined, or why it has none.
    private static func jsonText(of value: UnsafeMutablePointer<JSCValue>, what: String) -> EvaluationContext.Outcome {
        if jsc_value_is_undefined(value) != 0 { return .value("undefined") }
        if let json = takeString(jsc_value_to_json(value, 0)) { return .value(json) }
        if let context = jsc_value_get_context(value), let exception = jsc_context_get_exception(context) {
            let message = takeString(jsc_exception_to_string(exception)) ?? "unknown exception"
            jsc_context_clear_exception(context)
            return .failed("\(what) has no JSON form: \(message)")
        }
        return .value("undefined")
    }

    // MARK: Ending

    private func destroyWindow() {
        if let window {
            gtk_widget_destroy(window)
        } else if let view {
            gtk_widget_destroy(shim_web_view_as_widget(view))
        }
    }

    /// Standard input ended: the host is gone or done.
    func inputEnded() {
        stop()
    }

    /// Destroys the view (quietly) and ends the main loop.
    func stop() {
        shuttingDown = true
        destroyWindow()
        g_main_loop_quit(loop)
    }

    func send(_ event: RunnerEvent) {
        if !writer.send(event), !shuttingDown {
            logLine("the host stopped reading standard output; exiting")
            stop()
        }
    }
}

/// A registered message handler: its name, for the signal callback that does not say it.
final class HandlerRegistration {
    let name: String
    unowned let runner: WebViewRunner

    init(name: String, runner: WebViewRunner) {
        self.name = name
        self.runner = runner
    }
}

/// A newly allocated C string as a Swift string, freed.
func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}
