import Foundation

/// Attaches `bridge-inspector demo` to its child host: the interactive inspector when there is
/// a terminal, otherwise the live traffic printed as lines (so `demo | cat` and CI logs work).
///
/// The inspector runs on its own thread (curses wants one thread); cancelling the task (SIGINT,
/// SIGTERM, the child exiting) makes it return within one event-loop tick.
enum DemoAttach {
    static func run(socketPath: String, sharedRules: InteractiveInspector.SharedRules? = nil, mouse: Bool = true) async throws {
        let stop = StopRequest()
        try await withTaskCancellationHandler {
            try await InspectCommand.onUIThread {
                if TerminalCheck.isInteractive {
                    var inspector = InteractiveInspector(socketPath: socketPath, shouldStop: { stop.isSet }, sharedRules: sharedRules)
                    inspector.mouse = mouse
                    try inspector.run()
                } else {
                    try StreamPrinter(socketPath: socketPath).run(shouldStop: { stop.isSet })
                }
            }
        } onCancel: {
            stop.set()
        }
    }
}
