import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// Prints a host's live traffic as plain lines until the host goes away or `shouldStop` says so:
/// what `demo` does when there is no terminal to draw the inspector on (`demo | cat`).
struct StreamPrinter {
    let socketPath: String
    var formatter = LogLineFormatter()

    func run(shouldStop: @escaping @Sendable () -> Bool) throws {
        let session = try InspectorSession(socketPath: socketPath, subscribe: true, clientName: "bridge-inspector stream")
        defer { session.close() }
        StandardStreams.printOut("attached to \(Sanitizer.sanitize(session.hello.host.name)) (pid \(session.hello.host.pid)) at \(socketPath); no terminal, so printing the traffic")
        var state = LiveState()
        var printed = 0
        while !shouldStop() {
            guard let frame = try session.nextFrame(timeout: 0.25) else { continue }
            state.apply(frame)
            while printed < state.log.count {
                StandardStreams.printOut(formatter.line(for: state.log[printed], hold: state.holdMarks[printed]))
                printed += 1
            }
        }
    }
}
