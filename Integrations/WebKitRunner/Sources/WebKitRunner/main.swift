// bridge-inspector-webkit: a real WebKitGTK web view, driven by the host over JSON lines.
//
// Everything runs synchronously on the process's main thread: WebKitGTK must stay on the thread
// that initialised GTK, and Swift concurrency (async main, the main actor) would move work to
// dispatch worker threads on Linux. So main parses the options, starts Xvfb if asked, initialises
// GTK, builds the window and the view, and runs the GLib main loop until the host is done.
import CWebKitGTK
import Glibc
import WebKitRunnerCore

func runMain() -> Int32 {
    _ = processStartMilliseconds
    signal(SIGPIPE, SIG_IGN)  // a closed pipe to the host is an EPIPE, handled by EventWriter
    // A parent may spawn us with signals blocked (a Swift test process does); SIGTERM and SIGINT
    // must reach the GLib handlers below, and children inherit the mask.
    var noneBlocked = sigset_t()
    sigemptyset(&noneBlocked)
    sigprocmask(SIG_SETMASK, &noneBlocked, nil)

    let options: RunnerOptions
    switch RunnerOptions.parse(Array(CommandLine.arguments.dropFirst())) {
    case .success(.help):
        EventWriter(fileDescriptor: STDOUT_FILENO).writeAll(Array(RunnerOptions.usage.utf8))
        return 0
    case let .success(.run(parsed)):
        options = parsed
    case let .failure(problem):
        EventWriter(fileDescriptor: STDOUT_FILENO).send(.fatal(text: problem.text))
        logLine(problem.text)
        return 1
    }

    guard let streams = ProtocolStreams.claim() else {
        logLine("cannot use standard input and output: \(errnoText())")
        return 1
    }
    // Keep GLib's own messages (all levels) off standard output.
    g_log_writer_default_set_use_stderr(1)
    let writer = EventWriter(fileDescriptor: streams.output)
    func fatal(_ text: String) -> Int32 {
        writer.send(.fatal(text: text))
        logLine(text)
        return 1
    }

    var headless: HeadlessDisplay? = nil
    let display: String
    if options.headless {
        switch HeadlessDisplay.start(width: options.width, height: options.height) {
        case let .failure(problem): return fatal(problem.text)
        case let .success(started):
            headless = started
            display = started.display
        }
        HeadlessEnvironment.apply(display: display)
    } else if let given = getenv("DISPLAY").map({ String(cString: $0) }), !given.isEmpty {
        display = given
    } else if let wayland = getenv("WAYLAND_DISPLAY").map({ String(cString: $0) }), !wayland.isEmpty {
        display = wayland
    } else {
        return fatal("no display: DISPLAY is not set. Pass --headless to use a private Xvfb, or run inside a desktop session.")
    }
    defer {
        if let headless { logLine("stopped Xvfb \(headless.display): \(headless.stop())") }
    }

    guard gtk_init_check(nil, nil) != 0 else {
        return fatal("GTK could not start on display \(display) (is the X server reachable and may we connect?)")
    }

    let loop = g_main_loop_new(nil, 0)!
    defer { g_main_loop_unref(loop) }
    let runner = WebViewRunner(writer: writer, loop: loop)
    runner.createView(width: options.width, height: options.height)
    let version = "\(webkit_get_major_version()).\(webkit_get_minor_version()).\(webkit_get_micro_version())"
    runner.send(.started(webkitVersion: version, display: display))
    logLine("started \(millisecondsSinceStart()) ms after launch: WebKitGTK \(version) on \(display)")

    let reader = StandardInputReader(
        fileDescriptor: streams.input,
        onPiece: { runner.handle($0) },
        onEnd: { runner.inputEnded() })
    reader.start()
    // SIGTERM/SIGINT end the runner like `quit`, so Xvfb is stopped too.
    for signalNumber in [SIGTERM, SIGINT] {
        g_unix_signal_add(signalNumber, { userData in
            guard let userData else { return 0 }
            Unmanaged<WebViewRunner>.fromOpaque(userData).takeUnretainedValue().stop()
            return 0
        }, Unmanaged.passUnretained(runner).toOpaque())
    }

    g_main_loop_run(loop)
    reader.stop()
    return withExtendedLifetime((runner, reader)) { runner.exitStatus }
}

exit(runMain())
