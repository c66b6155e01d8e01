import ArgumentParser
import BridgeCore
import InspectorClient
import InspectorProtocol

/// `bridge-inspector lifecycle <step>`: makes one step of the app's lifecycle happen to the journey.
struct LifecycleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifecycle",
        abstract: "Make the app's lifecycle happen to the web journey: background, foreground, a turn, host.ready, a detached web view, a reload.",
        discussion: """
            One step per call, at the moment you choose (in the middle of a capture, say), to see \
            how the journey takes it:

              background           send host.background (the app went to the background)
              foreground           send host.foreground (the app came back)
              orientation VALUE    send host.orientation {"orientation": VALUE}; VALUE is \
            portrait or landscape (GBG's pages list no values: that is this tool's choice)
              ready                send host.ready again, with the host's own timestamp and version
              detach               the host forgets its web view: what it sends from now on fails \
            with "WebView not attached" in lastError
              attach               the host gets the same web view back
              reload               the journey's page loads again (host --serve, --webkit, or the \
            simulated journey, which starts its scenario again); the host sends host.ready to the \
            new page

            Nothing the host holds is cleared by any step: pending requests stay in \
            pendingRequests and capture slots keep their active requests, as GBGBridge's host \
            keeps them. The events are the documented ones and go as `event` sends them; what was \
            sent is printed as `event` prints it. detach, attach and reload print what was done \
            (with --json, as {"step": STEP, "done": WHAT}); a host that cannot do them (an app seen \
            through GBGBridge's public API) refuses with exit 2.

            Examples:
              bridge-inspector lifecycle background
              bridge-inspector lifecycle orientation landscape
              bridge-inspector lifecycle detach; bridge-inspector event host.ping; bridge-inspector lifecycle attach
              bridge-inspector lifecycle reload
            """)

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp(
        "background, foreground, orientation, ready, detach, attach or reload.", valueName: "step"))
    var step: String

    @Argument(help: ArgumentHelp("For orientation: portrait or landscape.", valueName: "value"))
    var value: String?

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    @OptionGroup var output: SentOutput

    func run() throws {
        try Script.run {
            let parsed: LifecycleStep
            switch LifecycleStep.parse(step, value: value) {
            case .success(let step): parsed = step
            case .failure(let error):
                throw ScriptError.usage(ScriptOutput.safe(error.description), hint: "see bridge-inspector lifecycle --help")
            }
            let session = try selection.session(subscribe: false, client: "bridge-inspector lifecycle")
            defer { session.close() }
            if case .journey = parsed { try session.require(.journeyControl, doing: "detach, attach or reload its journey's web view") }
            let (result, sent) = try session.perform(parsed.command, hint: nil)
            guard !quiet else { return }
            if case .journey(let journeyStep) = parsed {
                let done = result["done"]?.stringValue ?? journeyStep.summary
                if output.printsJSON {
                    StandardStreams.printJSON(try ScriptOutput.json(["step": journeyStep.rawValue, "done": done]))
                } else {
                    StandardStreams.printOut(ScriptOutput.safe("\(journeyStep.rawValue): \(done)"))
                }
            }
            try output.print(sent) { "sent event \($0.payload.action)" }
        }
    }
}
