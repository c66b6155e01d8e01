import CursesBackend
import Foundation
import InspectorClient
import InspectorProtocol
import InspectorTUI

/// Shows a recorded session offline with the same panes, filters and detail view as a live
/// one, read-only: nothing can be sent, and the clock stands at the end of the recording so
/// ages read as they were when it ended.
struct RecordingViewer {
    let path: String
    let frames: [AgentFrame]
    /// Where a followed host was run again: its restart marker takes the time recorded there.
    var restarts: [Recording.HostRestart] = []
    /// Where the file broke, if it did: shown when the viewer opens.
    let problem: String?

    func run() throws {
        let screen = try CursesScreen()
        defer { screen.end() }
        let loop = EventLoop(screen: screen)
        var model = InspectorModel(size: screen.size, socketPath: path, now: 0)
        model.readOnly = true
        for (index, frame) in frames.enumerated() {
            if let restart = restarts.first(where: { $0.beforeFrame == index }) { model.handle(.tick(restart.time)) }
            model.handle(.frame(frame))
        }
        let end = model.live.log.last?.time ?? Date().timeIntervalSince1970 * 1000
        model.handle(.tick(end))
        if let problem { model.handle(.notice(problem, isError: true)) }
        while !model.quitting {
            screen.draw(model.render())
            for event in loop.next(timeout: .milliseconds(250)).events {
                switch event {
                case .key(let key):
                    // Nothing can be sent from a recording; copying a message still works.
                    for case .copyToClipboard(let bytes) in model.handle(.key(key)) {
                        if let notice = TerminalClipboard.copy(bytes, to: screen) { model.handle(notice) }
                    }
                case .resize(let size): model.handle(.resize(size))
                case .mouse: break
                }
            }
        }
    }
}
