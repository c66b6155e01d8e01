import ArgumentParser
import TerminalUI

/// `bridge-inspector host`: a real bridge host with a simulated web journey, or a real one in a
/// browser (`--serve`) or in a WebKit web view (`--webkit`), serving the inspector on a Unix socket.
struct HostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Run a GBGBridge host with a simulated web journey, or a real one in a browser or WebKit, and serve the inspector.",
        discussion: """
            The host is a real BridgeHost, the same library an app embeds, set up from a host \
            profile (its capture slots and custom capabilities). The web journey is simulated \
            in this process from a journey scenario: it sends requests and events to the host and \
            receives the host's messages through the same JavaScript delivery a WebView uses.

            The first line on standard output says where inspectors can attach:

              socket: /run/user/1000/bridge-inspector/demo.12345.sock

            With --listen-tcp PORT the inspector is also served on 127.0.0.1:PORT, the way an app \
            on a phone is reached over USB: the next line on standard output is `tcp: \
            127.0.0.1:PORT`, and standard error gets one line with the token clients must give \
            (BRIDGE_INSPECTOR_TOKEN=T bridge-inspector --connect 127.0.0.1:PORT). See docs/real-apps.md.

            Without options this runs the built-in demo (examples/profiles/demo.json and the \
            looping examples/scenarios/demo.json). Ctrl-C or SIGTERM stops it and removes the \
            socket. Bad profile or scenario files are reported with the file, the place in it and \
            what was expected, and nothing is started (exit 64). Both formats are described in \
            docs/scenarios.md.

            With --serve DIR the journey is real instead: the host serves DIR on 127.0.0.1 \
            (--port, default a free one) and injects the bridge bootstrap at document start of \
            every HTML page, so the page in a desktop browser has \
            window.webkit.messageHandlers.gbgBridge and window.GBGBridge as in a WKWebView; its \
            messages travel over a WebSocket. The second line on standard output is the address \
            to open, with a secret token made for this run (as Jupyter does):

              serving: http://127.0.0.1:8787/?token=3q2-7wX...

            Only a browser that opened that URL can be the journey: other local programs and \
            pages are refused with 403, and the attached page is left alone. Each page load is a \
            fresh bridge context and gets host.ready. Only pages of that origin may connect; a \
            journey on its own dev server is allowed with --allow-origin (then --serve may be left \
            out) and includes, as its first script, the bootstrap script at the address with the \
            token the host prints. Slow or idle connections are closed. \
            Without --profile, a host-profile.json in DIR is the profile (its name names the \
            host). With --inspect-via public-api \
            the pages also run the inspector's page script, as an app's WKWebView does, and the \
            inspector sees what the host sends only through its reports. See docs/web-journeys.md.

            With --webkit JOURNEY (Linux) the journey runs in a real WebKit web view (WebKitGTK, \
            JavaScriptCore) instead of a browser: the host is its gbgBridge script message \
            handler, GBGBridge's bootstrap is a document-start, top-frame-only user script, and \
            every message the host sends is evaluated in the page as \
            window.GBGBridge.receive(...), so evaluation errors reach lastError as on iOS. \
            JOURNEY is a directory (its index.html and host-profile.json), an HTML file or a URL. \
            Without $DISPLAY, or with --headless, the web view gets a virtual display of its own \
            (Xvfb). It needs the WebKit runner: swift build --package-path \
            Integrations/WebKitRunner (apt-get install libwebkit2gtk-4.1-dev xvfb). Each page \
            that finishes loading gets host.ready. See docs/web-journeys.md.

            With --recording FILE the host answers the journey (served, in WebKit or \
            simulated) from a session recorded with `record` instead of a profile: each request \
            gets the answer the recorded app gave, matched by action and data in recorded order \
            (--match-ignore names data fields that may differ), the recorded host events come \
            after the same journey message, each page load starts the recording again, and what \
            it cannot answer waits in pendingRequests for you or a reply rule. With \
            --recorded-pacing answers take as long as they did. See docs/web-journeys.md.

            Examples:
              bridge-inspector host
              bridge-inspector host --profile examples/profiles/minimal.json \\
                  --scenario examples/scenarios/capture-flow.json \\
                  --journey-log journey.jsonl --exit-when-done
              bridge-inspector host --serve examples/web-journey --port 8787   # + its host-profile.json
              bridge-inspector host --port 8787 --allow-origin http://localhost:5173
              bridge-inspector host --webkit examples/web-journey   # in a real WebKit web view (Linux)
              bridge-inspector host --inspect-via public-api     # seen as a GBGBridge app is
              bridge-inspector host --serve examples/web-journey --inspect-via public-api
              bridge-inspector host --serve ./journey --recording session.jsonl
              bridge-inspector host --listen-tcp 9123     # then: BRIDGE_INSPECTOR_TOKEN=T bridge-inspector --connect 127.0.0.1:9123
            """
    )

    @OptionGroup var options: HostOptions

    func run() async throws {
        var options = options
        // With --recording the recording is the host: a profile beside the journey is not used.
        if options.recordingPath == nil, let besideJourney = HostOptions.profileBesideJourney(serveDirectory: options.journeyDirectory, profilePath: options.profilePath) {
            StandardStreams.printError(
                "bridge-inspector host: using the host profile \(Sanitizer.sanitize(besideJourney)) that sits beside the journey (--profile FILE chooses another).")
            options.profilePath = besideJourney
        }
        let status = await HostRunner(options: options).run()
        if status != 0 { throw ExitCode(status) }
    }
}
