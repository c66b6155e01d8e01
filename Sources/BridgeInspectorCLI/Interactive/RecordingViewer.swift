import CursesBackend
import Foundation
import InspectorClient
import InspectorProtocol
import InspectorTUI

/// Shows a recorded session offline with the same panes, filters and detail view as a live
/// one, read-only: nothing can be sent, and the clock stands at the end of the recording so
/// ages read as they were when it ended (``InspectorModel/init(recording:restarts:size:path:)``).
struct RecordingViewer {
    let path: String
    let frames: [AgentFrame]
    /// Where a followed host was run again: its restart marker takes the time recorded there.
    var restarts: [Recording.HostRestart] = []
    /// The rows marked in the inspector that saved the file (`w`): marked again here.
    var marks: [Recording.Mark] = []
    /// Where the file broke, if it did: shown when the viewer opens.
    let problem: String?
    /// Report clicks and the wheel (off with `--no-mouse`).
    var mouse = true
    /// A recording to compare this one with as the viewer opens (`open FILE --compare OTHER`).
    var comparison: (path: String, contents: Recording.Contents)? = nil

    func run() throws {
        let screen = try CursesScreen(options: CursesScreen.Options(mouse: mouse))
        defer { screen.end() }
        let loop = EventLoop(screen: screen)
        // Read-only, and as of the recording's end: its ages never run on the wall clock.
        var model = InspectorModel(recording: frames, restarts: restarts, marks: marks, size: screen.size, path: path)
        if let problem { model.handle(.notice(problem, isError: true)) }
        if let comparison { model.handle(.comparisonLoaded(path: comparison.path, comparison.contents)) }
        while !model.quitting {
            screen.draw(model.render())
            let events = loop.next(timeout: .milliseconds(250)).events
            // The wall clock only times notices here; the recording's ages stay at its end.
            model.handle(.tick(Date().timeIntervalSince1970 * 1000))
            for event in events {
                let effects: [InspectorEffect]
                switch event {
                case .key(let key): effects = model.handle(.key(key))
                case .mouse(let pointer): effects = model.handle(.mouse(pointer))
                case .resize(let size): effects = model.handle(.resize(size))
                }
                // Nothing can be sent from a recording; copying a message and saving a copy
                // (with the marks made here) still work.
                for effect in effects {
                    switch effect {
                    case .copyToClipboard(let bytes):
                        if let notice = TerminalClipboard.copy(bytes, to: screen) { model.handle(notice) }
                    case .saveRecording(let path, let bytes, let overwrite):
                        model.handle(.recordingSaved(RecordingFile.write(bytes, to: path, overwrite: overwrite)))
                    case .saveFaultRules(let path, let bytes, let overwrite):
                        model.handle(.faultRulesSaved(RecordingFile.write(bytes, to: path, overwrite: overwrite)))
                    case .loadComparison(let path):
                        model.handle(.comparisonLoaded(path: path, RecordingPath.load(path)))
                    case .send, .openEditor, .quit, .loadFaultRules:
                        break
                    }
                }
            }
        }
    }
}
